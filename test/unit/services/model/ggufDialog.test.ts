/**
 * model.pickGguf: the services answer "no dialog" (browser mode, CLI); in the desktop app
 * the main process answers it with a native .gguf open dialog. The IPC registration runs
 * here against a mocked `electron`: the override is used only for its own method, is
 * validated against the contract, and stays behind the own-window check.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { callMethod } from '../../../../electron/services/api';
import { ServiceContext } from '../../../../electron/services/context';

type Handler = (event: unknown, input?: unknown) => Promise<unknown>;

const fake = vi.hoisted(() => ({
  handlers: new Map<string, Handler>(),
  showOpenDialog: vi.fn(),
}));

vi.mock('electron', () => ({
  ipcMain: {
    handle: (name: string, handler: Handler) => fake.handlers.set(name, handler),
    removeHandler: (name: string) => fake.handlers.delete(name),
  },
  dialog: { showOpenDialog: fake.showOpenDialog },
}));

const { registerIpc } = await import('../../../../electron/main/ipc');
const { ggufDialogHandlers, GGUF_FILTERS } = await import('../../../../electron/main/ggufDialog');

const INDEX = '/opt/veil/out/renderer/index.html';
const dir = mkdtempSync(join(tmpdir(), 'veil-dialog-'));
const ctx = new ServiceContext(dir, 'electron');
const win = { webContents: { send: vi.fn() }, isDestroyed: () => false };
const own = { sender: win.webContents, senderFrame: { url: `file://${INDEX}` } };
// ipcMain turns a handler's synchronous throw into a rejected invoke, as `async` does here.
const call = async (name: string, input?: unknown, event: unknown = own) => fake.handlers.get(name)!(event, input);

afterAll(async () => {
  await ctx.close();
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => {
  fake.handlers.clear();
  fake.showOpenDialog.mockReset();
});

describe('model.pickGguf', () => {
  it('has no dialog in browser mode and the CLI (the services answer), so the page shows only the path field', async () => {
    expect(await callMethod(ctx, 'model.pickGguf', { probe: true })).toEqual({ available: false, path: null });
    expect(await callMethod(ctx, 'model.pickGguf', {})).toEqual({ available: false, path: null });
    registerIpc(ctx, win as never, INDEX);
    expect(await call('model.pickGguf', {})).toEqual({ available: false, path: null });
  });

  it('opens a native .gguf dialog in Electron main and returns the chosen file, or null when cancelled', async () => {
    const unregister = registerIpc(ctx, win as never, INDEX, ggufDialogHandlers(win as never));
    expect(await call('model.pickGguf', { probe: true })).toEqual({ available: true, path: null });
    expect(fake.showOpenDialog).not.toHaveBeenCalled();

    fake.showOpenDialog.mockResolvedValueOnce({ canceled: false, filePaths: ['/models/tiny.gguf'] });
    expect(await call('model.pickGguf', {})).toEqual({ available: true, path: '/models/tiny.gguf' });
    expect(fake.showOpenDialog).toHaveBeenCalledWith(win, expect.objectContaining({ properties: ['openFile'], filters: GGUF_FILTERS }));
    expect(GGUF_FILTERS).toEqual([{ name: 'GGUF models', extensions: ['gguf'] }]);

    fake.showOpenDialog.mockResolvedValueOnce({ canceled: true, filePaths: [] });
    expect(await call('model.pickGguf', undefined)).toEqual({ available: true, path: null });

    // Every other method still goes to the services.
    expect(await call('app.info', {})).toMatchObject({ mode: 'electron' });
    unregister();
    expect(fake.handlers.size).toBe(0);
  });

  it('validates the override against the contract and refuses calls from other frames', async () => {
    registerIpc(ctx, win as never, INDEX, ggufDialogHandlers(win as never));
    await expect(call('model.pickGguf', { probe: 'yes' })).rejects.toThrow();
    await expect(call('model.pickGguf', { path: '/etc/passwd' })).rejects.toThrow();
    await expect(call('model.pickGguf', {}, { sender: win.webContents, senderFrame: { url: 'https://evil.example/' } })).rejects.toThrow(/unknown frame/);
    await expect(call('model.pickGguf', {}, { sender: {}, senderFrame: { url: `file://${INDEX}` } })).rejects.toThrow(/unknown frame/);
    fake.showOpenDialog.mockResolvedValueOnce({ canceled: false, filePaths: [42] });
    await expect(call('model.pickGguf', {})).rejects.toThrow();
    expect(fake.showOpenDialog).toHaveBeenCalledOnce();
  });
});
