/**
 * Electron main: app lifecycle only. Services live in electron/services.
 */
import { app } from 'electron';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ServiceContext } from '../services/context';
import { ensureDataDir } from '../services/dataDir';
import { ggufDialogHandlers } from './ggufDialog';
import { registerIpc } from './ipc';
import { createMainWindow, hardenSession } from './window';

app.enableSandbox();
const dataDir = ensureDataDir(process.env.VEIL_DATA_DIR ?? app.getPath('userData'));
const ctx = new ServiceContext(dataDir, 'electron');
const here = dirname(fileURLToPath(import.meta.url));
const preload = join(here, '../preload/index.cjs');
const rendererIndex = join(here, '../renderer/index.html');

app.on('web-contents-created', (_event, contents) => {
  contents.on('will-attach-webview', (e) => e.preventDefault());
});

void app.whenReady().then(() => {
  hardenSession();
  const win = createMainWindow(preload, rendererIndex, { packaged: app.isPackaged });
  const unregister = registerIpc(ctx, win, rendererIndex, ggufDialogHandlers(win));
  win.on('closed', unregister);
});

app.on('window-all-closed', () => app.quit());
app.on('will-quit', () => void ctx.close());
