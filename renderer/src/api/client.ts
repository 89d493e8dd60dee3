/**
 * The renderer's one way to reach the services: `window.veil` from the Electron preload,
 * or the bridge client in browser mode. Pages import `api` and never know which.
 */
import type { VeilApi } from '../../../electron/shared/contract';
import { createBridgeClient, takeToken } from './bridgeClient';

declare global {
  interface Window {
    veil?: VeilApi;
  }
}

function connect(): { api: VeilApi | null; transport: 'electron' | 'bridge' | 'none' } {
  if (window.veil) return { api: window.veil, transport: 'electron' };
  const token = takeToken(window.location, window.sessionStorage, window.history);
  return token ? { api: createBridgeClient(token), transport: 'bridge' } : { api: null, transport: 'none' };
}

export const connection = connect();
