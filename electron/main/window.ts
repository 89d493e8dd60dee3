/**
 * Window factory: hardened BrowserWindow (context isolation, sandbox, no Node in the
 * renderer, strict CSP), with navigation, new windows, webviews and permission requests
 * denied; external links go to the system browser only after a URL check.
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

export function createMainWindow(preloadPath: string, rendererIndex: string): BrowserWindow {
  const indexUrl = pathToFileURL(rendererIndex).toString();
  const win = new BrowserWindow({
    width: 1280,
    height: 820,
    show: false,
    title: 'Veil',
    webPreferences: secureWebPreferences(preloadPath),
  });
  const contents = win.webContents;
  contents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url, indexUrl)) event.preventDefault();
  });
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (isSafeExternalUrl(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  win.once('ready-to-show', () => win.show());
  void win.loadURL(indexUrl);
  return win;
}
