/**
 * The Models page's "Browse…" in the desktop app: the main process answers model.pickGguf
 * with a native open dialog limited to .gguf files. (Services never import electron; in
 * browser mode and the CLI the service answers `{ available: false }` and the page shows
 * only the path field.) The chosen path is validated again when it is loaded.
 */
import { dialog, type BrowserWindow } from 'electron';
import type { MainHandlers } from './ipc';

export const GGUF_FILTERS = [{ name: 'GGUF models', extensions: ['gguf'] }];

export function ggufDialogHandlers(win: BrowserWindow): MainHandlers {
  return {
    'model.pickGguf': async ({ probe }) => {
      if (probe) return { available: true, path: null };
      const { canceled, filePaths } = await dialog.showOpenDialog(win, { title: 'Choose a GGUF model', properties: ['openFile'], filters: GGUF_FILTERS });
      return { available: true, path: canceled ? null : (filePaths[0] ?? null) };
    },
  };
}
