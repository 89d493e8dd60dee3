/**
 * Preload: exposes exactly the contract's named methods as `window.veil`, plus `on` for
 * pushed events (returns an unsubscribe). No generic invoke is exposed.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { eventNames, methodNames } from '../shared/contract';

const EVENT_CHANNEL = 'veil:event';
const api: Record<string, unknown> = {};
for (const name of methodNames) api[name] = (input: unknown) => ipcRenderer.invoke(name, input ?? {});
api.on = (event: string, listener: (payload: unknown) => void) => {
  if (!(eventNames as string[]).includes(event)) throw new Error(`unknown event ${event}`);
  const handler = (_e: IpcRendererEvent, name: string, payload: unknown) => {
    if (name === event) listener(payload);
  };
  ipcRenderer.on(EVENT_CHANNEL, handler);
  return () => ipcRenderer.removeListener(EVENT_CHANNEL, handler);
};
contextBridge.exposeInMainWorld('veil', api);
