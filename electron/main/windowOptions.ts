/**
 * Hardened window settings, kept free of `electron` imports so tests can assert them.
 */
export interface SecureWebPreferences {
  preload: string;
  contextIsolation: true;
  sandbox: true;
  nodeIntegration: false;
  nodeIntegrationInWorker: false;
  nodeIntegrationInSubFrames: false;
  webSecurity: true;
  allowRunningInsecureContent: false;
  webviewTag: false;
  experimentalFeatures: false;
  spellcheck: false;
  navigateOnDragDrop: false;
  /** Off in packaged builds: DevTools would give a local user a console inside the app. */
  devTools: boolean;
}

export function secureWebPreferences(preload: string, { packaged = true }: { packaged?: boolean } = {}): SecureWebPreferences {
  return {
    preload,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    experimentalFeatures: false,
    spellcheck: false,
    navigateOnDragDrop: false,
    devTools: !packaged,
  };
}

/** Links the app may hand to the system browser: https only, no credentials in the URL. */
export function isSafeExternalUrl(raw: string): boolean {
  try {
    const url = new URL(raw);
    return url.protocol === 'https:' && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}

/** The renderer is loaded from a file:// URL inside the app; nothing else may be navigated to. */
export function isAppUrl(raw: string, rendererIndexUrl: string): boolean {
  try {
    const url = new URL(raw);
    const own = new URL(rendererIndexUrl);
    return url.protocol === own.protocol && url.pathname === own.pathname;
  } catch {
    return false;
  }
}
