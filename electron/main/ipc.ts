/**
 * IPC registration: one `ipcMain.handle` per contract method (no catch-all channel).
 * Every call is checked to come from our own window, then validated by `callMethod`.
 * Pushed events go out on the single 'veil:event' channel.
 */
import { ipcMain, type BrowserWindow, type IpcMainInvokeEvent } from 'electron';
import { pathToFileURL } from 'node:url';
import { methodNames } from '../shared/contract';
import { callMethod } from '../services/api';
import type { ServiceContext } from '../services/context';
import { isAppUrl } from './windowOptions';

export const EVENT_CHANNEL = 'veil:event';

export function registerIpc(ctx: ServiceContext, win: BrowserWindow, rendererIndex: string): () => void {
  const indexUrl = pathToFileURL(rendererIndex).toString();
  const fromOwnWindow = (event: IpcMainInvokeEvent) =>
    event.sender === win.webContents && isAppUrl(event.senderFrame?.url ?? '', indexUrl);
  for (const name of methodNames) {
    ipcMain.handle(name, (event, input: unknown) => {
      if (!fromOwnWindow(event)) throw new Error('IPC call from an unknown frame refused');
      return callMethod(ctx, name, input);
    });
  }
  const unsubscribe = ctx.subscribe((event, payload) => {
    if (!win.isDestroyed()) win.webContents.send(EVENT_CHANNEL, event, payload);
  });
  return () => {
    unsubscribe();
    for (const name of methodNames) ipcMain.removeHandler(name);
  };
}
