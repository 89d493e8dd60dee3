/**
 * The window factory against a mocked `electron`: the BrowserWindow's hardened options,
 * and the handlers that deny navigation, redirects, new windows, webviews and permission
 * requests, set the CSP header, and open only credential-free https links externally.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../../../electron/bridge/csp';
import { createMainWindow, hardenSession } from '../../../electron/main/window';
import { secureWebPreferences } from '../../../electron/main/windowOptions';

type Handler = (...args: unknown[]) => unknown;

const fake = vi.hoisted(() => {
  const handlers = (): Map<string, Handler> => new Map();
  class FakeWindow {
    static created: FakeWindow[] = [];
    readonly events = handlers();
    readonly webContents = {
      events: handlers(),
      windowOpenHandler: null as Handler | null,
      closeDevTools: vi.fn(),
      on(event: string, fn: Handler) {
        this.events.set(event, fn);
      },
      setWindowOpenHandler(fn: Handler) {
        this.windowOpenHandler = fn;
      },
    };
    readonly show = vi.fn();
    readonly loadURL = vi.fn(async () => undefined);
    constructor(readonly options: Record<string, unknown>) {
      FakeWindow.created.push(this);
    }
    once(event: string, fn: Handler) {
      this.events.set(event, fn);
    }
  }
  const session = {
    handlers: handlers(),
    setPermissionRequestHandler(fn: Handler) {
      this.handlers.set('permission-request', fn);
    },
    setPermissionCheckHandler(fn: Handler) {
      this.handlers.set('permission-check', fn);
    },
    webRequest: {
      onHeadersReceived(fn: Handler) {
        session.handlers.set('headers-received', fn);
      },
    },
  };
  return { FakeWindow, session, openExternal: vi.fn(async () => undefined) };
});

vi.mock('electron', () => ({
  BrowserWindow: fake.FakeWindow,
  session: { defaultSession: fake.session },
  shell: { openExternal: fake.openExternal },
}));
// (vi.mock is hoisted above the imports, so window.ts sees the fake electron.)

const PRELOAD = '/opt/veil/out/preload/index.cjs';
const INDEX = '/opt/veil/out/renderer/index.html';
const preventable = () => ({ preventDefault: vi.fn() });

function openWindow() {
  createMainWindow(PRELOAD, INDEX);
  const win = fake.FakeWindow.created.at(-1)!;
  const fire = (event: string, ...args: unknown[]) => {
    const e = preventable();
    win.webContents.events.get(event)!(e, ...args);
    return e.preventDefault.mock.calls.length > 0;
  };
  return { win, fire };
}

beforeEach(() => {
  fake.FakeWindow.created = [];
  fake.openExternal.mockClear();
});

describe('createMainWindow', () => {
  it('creates a hidden, isolated, sandboxed window with no Node and no webview tag, loading the app file', () => {
    const { win } = openWindow();
    expect(win.options).toMatchObject({ show: false, title: 'Veil' });
    // Every setting is the hardened set (asserted field by field in windowOptions.test.ts).
    expect(win.options.webPreferences).toEqual(secureWebPreferences(PRELOAD));
    expect(win.options.webPreferences).toMatchObject({ sandbox: true, contextIsolation: true, nodeIntegration: false, webviewTag: false });
    expect(win.loadURL).toHaveBeenCalledWith('file:///opt/veil/out/renderer/index.html');
    win.events.get('ready-to-show')!();
    expect(win.show).toHaveBeenCalledOnce();
  });

  it('denies navigation away from the app page, every redirect and every webview', () => {
    const { fire } = openWindow();
    expect(fire('will-navigate', 'https://evil.example/')).toBe(true);
    expect(fire('will-navigate', 'file:///etc/passwd')).toBe(true);
    expect(fire('will-navigate', 'file:///opt/veil/out/renderer/index.html#/budget')).toBe(false);
    expect(fire('will-redirect', 'file:///opt/veil/out/renderer/index.html')).toBe(true);
    expect(fire('will-attach-webview', {}, {})).toBe(true);
  });

  it('denies a frame navigating away from the app page, and closes DevTools in a packaged build', () => {
    const { win } = openWindow();
    const frameNavigation = (url: string) => {
      const event = { url, isMainFrame: false, preventDefault: vi.fn() };
      win.webContents.events.get('will-frame-navigate')!(event);
      return event.preventDefault.mock.calls.length > 0;
    };
    expect(frameNavigation('https://evil.example/')).toBe(true);
    expect(frameNavigation('file:///opt/veil/out/renderer/index.html')).toBe(false);
    expect(win.options.webPreferences).toMatchObject({ devTools: false });
    win.webContents.events.get('devtools-opened')!();
    expect(win.webContents.closeDevTools).toHaveBeenCalledOnce();
    createMainWindow(PRELOAD, INDEX, { packaged: false });
    expect(fake.FakeWindow.created.at(-1)!.options.webPreferences).toMatchObject({ devTools: true });
  });

  it('denies every new window and hands only credential-free https links to the system browser', () => {
    const { win } = openWindow();
    const open = (url: string) => win.webContents.windowOpenHandler!({ url });
    for (const url of ['https://arxiv.org/abs/2309.11765', 'http://example.com/', 'https://user:pw@example.com/', 'file:///etc/passwd', 'javascript:alert(1)']) {
      expect(open(url)).toEqual({ action: 'deny' });
    }
    expect(fake.openExternal.mock.calls).toEqual([['https://arxiv.org/abs/2309.11765']]);
  });
});

describe('hardenSession', () => {
  beforeEach(() => hardenSession());

  it('refuses every permission request and check', () => {
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read']) {
      const callback = vi.fn();
      fake.session.handlers.get('permission-request')!({}, permission, callback);
      expect(callback).toHaveBeenCalledWith(false);
      expect(fake.session.handlers.get('permission-check')!({}, permission)).toBe(false);
    }
  });

  it('adds the Content-Security-Policy to every response, keeping the other headers', () => {
    const callback = vi.fn();
    fake.session.handlers.get('headers-received')!({ responseHeaders: { 'Content-Type': ['text/html'] } }, callback);
    expect(callback).toHaveBeenCalledWith({
      responseHeaders: { 'Content-Type': ['text/html'], 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] },
    });
  });
});
