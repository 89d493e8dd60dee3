/**
 * The app shell in Chromium through the real bridge: the navigation, every page (each
 * shows a heading and no error), the status bar and the theme. Any API response ≥ 400,
 * console error or uncaught page error on the app page fails the test that caused it.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, startApp, type AppSession } from './harness';

const NAV = ['Vault', 'Budget', 'Synthesize', 'Ask', 'Audit', 'Models'];

describe.runIf(chromiumAvailable())('app shell in Chromium (browser mode)', () => {
  let app: AppSession;
  const problems: string[] = [];
  beforeAll(async () => {
    app = await startApp();
    app.page.on('response', (response) => {
      if (new URL(response.url()).pathname.startsWith('/api/') && response.status() >= 400) {
        problems.push(`HTTP ${response.status()} from ${response.request().method()} ${response.url()}`);
      }
    });
    app.page.on('console', (message) => {
      const where = message.location().url;
      // Chromium's own favicon probe (renderer/index.html declares no icon) is not an app error.
      if (message.type() === 'error' && !where.endsWith('/favicon.ico')) problems.push(`console error: ${message.text()} (${where})`);
    });
    app.page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    await app.open('/vault');
  });
  afterEach(() => expect(problems.splice(0)).toEqual([]));
  afterAll(() => app?.close());

  it('scrubs the token from the address bar and shows the backend in the status bar', async () => {
    expect(app.page.url()).not.toContain('token=');
    await expect.poll(() => app.page.getByTestId('status-backend').textContent()).toMatch(/Model backend: \w+/);
    await expect.poll(() => app.page.getByTestId('status-connection').textContent()).toMatch(/Connected/);
    expect(await app.page.getByTestId('status-data-dir').textContent()).toContain(app.dataDir);
  });

  it('visits every page through the navigation; each shows a heading and no error', async () => {
    const links = app.page.locator('nav a');
    expect(await links.allTextContents()).toEqual(NAV);
    for (const [index, label] of NAV.entries()) {
      const link = links.nth(index);
      const href = await link.getAttribute('href');
      await link.click();
      await expect.poll(() => app.page.url()).toContain(href);
      await expect.poll(() => link.getAttribute('aria-current')).toBe('page');
      const heading = app.page.locator('main').getByRole('heading').first();
      await expect.poll(async () => ((await heading.textContent()) ?? '').trim(), { message: `${label} heading` }).not.toBe('');
      expect(await app.page.locator('main').getByText(/This page failed/).count(), `${label} page failed`).toBe(0);
    }
  });

  it('switches pages with Alt+number and toggles the theme', async () => {
    await app.page.keyboard.press('Alt+2');
    await expect.poll(() => app.page.locator('nav a[aria-current="page"]').textContent()).toBe(NAV[1]);
    const before = await app.page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await app.page.getByLabel('toggle theme').click();
    await expect.poll(() => app.page.evaluate(() => getComputedStyle(document.body).backgroundColor)).not.toBe(before);
  });

  it('shows a not-connected notice when opened without the token', async () => {
    const page = await app.browser.newPage();
    await page.goto(app.bridge.url);
    await expect.poll(() => page.getByRole('alert').first().textContent()).toMatch(/Not connected/);
    await page.close();
  });
});
