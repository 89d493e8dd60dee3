/**
 * IPC registration: one `ipcMain.handle` per contract method (no catch-all channel).
 * Every call is checked to come from our own window, then validated by `callMethod` — or,
 * for the few methods the main process answers itself (native dialogs, which services
 * cannot open because they never import electron), against the same contract schemas.
 * Pushed events go out on the single 'veil:event' channel.
 */
import { ipcMain, type BrowserWindow, type IpcMainInvokeEvent } from 'electron';
import { pathToFileURL } from 'node:url';
import { contract, methodNames, type MethodName, type MethodOutput, type MethodParams } from '../shared/contract';
import { callMethod } from '../services/api';
import type { ServiceContext } from '../services/context';
import { isAppUrl } from './windowOptions';

export const EVENT_CHANNEL = 'veil:event';

/** Contract methods answered by the main process instead of the services. */
export type MainHandlers = { [M in MethodName]?: (input: MethodParams<M>) => Promise<MethodOutput<M>> };

async function callMain<M extends MethodName>(name: M, handler: NonNullable<MainHandlers[M]>, rawInput: unknown): Promise<MethodOutput<M>> {
  const spec = contract[name];
  const input = spec.input.parse(rawInput ?? {}) as MethodParams<M>;
  return spec.output.parse(await handler(input)) as MethodOutput<M>;
}

export function registerIpc(ctx: ServiceContext, win: BrowserWindow, rendererIndex: string, mainHandlers: MainHandlers = {}): () => void {
  const indexUrl = pathToFileURL(rendererIndex).toString();
  const fromOwnWindow = (event: IpcMainInvokeEvent) =>
    event.sender === win.webContents && isAppUrl(event.senderFrame?.url ?? '', indexUrl);
  for (const name of methodNames) {
    const own = mainHandlers[name];
    ipcMain.handle(name, (event, input: unknown) => {
      if (!fromOwnWindow(event)) throw new Error('IPC call from an unknown frame refused');
      return own ? callMain(name, own, input) : callMethod(ctx, name, input);
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
