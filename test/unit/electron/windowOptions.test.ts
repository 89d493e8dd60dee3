/** The window factory's security settings and URL checks. */
import { describe, expect, it } from 'vitest';
import { isAppUrl, isSafeExternalUrl, secureWebPreferences } from '../../../electron/main/windowOptions';

describe('window security options', () => {
  it('isolates and sandboxes the renderer with no Node integration', () => {
    const prefs = secureWebPreferences('/app/out/preload/index.cjs');
    expect(prefs).toMatchObject({
      preload: '/app/out/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      devTools: false,
    });
    expect(secureWebPreferences('/app/out/preload/index.cjs', { packaged: false }).devTools).toBe(true);
  });

  it('opens only credential-free https links externally', () => {
    expect(isSafeExternalUrl('https://arxiv.org/abs/2309.11765')).toBe(true);
    expect(isSafeExternalUrl('http://example.com')).toBe(false);
    expect(isSafeExternalUrl('file:///etc/passwd')).toBe(false);
    expect(isSafeExternalUrl('javascript:alert(1)')).toBe(false);
    expect(isSafeExternalUrl('https://user:pw@example.com')).toBe(false);
    expect(isSafeExternalUrl('not a url')).toBe(false);
  });

  it('allows navigation only within the app page', () => {
    const index = 'file:///opt/veil/out/renderer/index.html';
    expect(isAppUrl('file:///opt/veil/out/renderer/index.html#/budget', index)).toBe(true);
    expect(isAppUrl('file:///etc/passwd', index)).toBe(false);
    expect(isAppUrl('https://example.com/', index)).toBe(false);
  });
});
