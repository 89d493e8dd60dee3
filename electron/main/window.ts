/**
 * Window factory: hardened BrowserWindow (context isolation, sandbox, no Node in the
 * renderer, strict CSP), with navigation, new windows, webviews and permission requests
 * denied (frames included); external links go to the system browser only after a URL check;
 * no DevTools in a packaged build.
 */
import { BrowserWindow, session, shell } from 'electron';
import { pathToFileURL } from 'node:url';
import { CONTENT_SECURITY_POLICY } from '../bridge/csp';
import { isAppUrl, isSafeExternalUrl, secureWebPreferences } from './windowOptions';

export function hardenSession(): void {
  const ses = session.defaultSession;
  ses.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  ses.setPermissionCheckHandler(() => false);
  ses.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
  });
}

/** `packaged`: a packaged build (app.isPackaged) has DevTools disabled. */
export function createMainWindow(preloadPath: string, rendererIndex: string, { packaged = true }: { packaged?: boolean } = {}): BrowserWindow {
  const indexUrl = pathToFileURL(rendererIndex).toString();
  const win = new BrowserWindow({
    width: 1280,
    height: 820,
    show: false,
    title: 'Veil',
    webPreferences: secureWebPreferences(preloadPath, { packaged }),
  });
  const contents = win.webContents;
  contents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url, indexUrl)) event.preventDefault();
  });
  // Frames too (an iframe the CSP should already refuse): nothing but the app page, in any frame.
  contents.on('will-frame-navigate', (event: { url: string; preventDefault(): void }) => {
    if (!isAppUrl(event.url, indexUrl)) event.preventDefault();
  });
  contents.on('will-redirect', (event) => event.preventDefault());
  if (packaged) contents.on('devtools-opened', () => contents.closeDevTools());
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (isSafeExternalUrl(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  win.once('ready-to-show', () => win.show());
  void win.loadURL(indexUrl);
  return win;
}
