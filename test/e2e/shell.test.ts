/**
 * The app shell in Chromium through the real bridge: the navigation, every page (each
 * shows its own heading and no error), the status bar and the theme. Any API response ≥ 400,
 * console error or uncaught page error on the app page fails the test that caused it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeLaunchPage } from '../../electron/bridge/launchPage';
import { chromiumAvailable, failOnProblems, startApp, type AppSession } from './harness';

/** Each navigation item, in order, with the heading of the page it opens. */
const PAGES: [nav: string, heading: string][] = [
  ['Vault', 'Vault'],
  ['Budget', 'Privacy budget'],
  ['Synthesize', 'Synthesize a DP few-shot prompt'],
  ['Ask', 'Ask with private examples'],
  ['Augment', 'Augment a thin public set'],
  ['Audit', 'Membership-inference audit'],
  ['Models', 'Models'],
];
const NAV = PAGES.map(([nav]) => nav);

describe.runIf(chromiumAvailable())('app shell in Chromium (browser mode)', () => {
  let app: AppSession;
  beforeAll(async () => {
    app = await startApp();
    await app.open('/vault');
  });
  failOnProblems(() => app);
  afterAll(() => app?.close());

  it('scrubs the token from the address bar and shows the backend in the status bar', async () => {
    expect(app.page.url()).not.toContain('token=');
    await expect.poll(() => app.page.getByTestId('status-backend').textContent()).toMatch(/Model backend: \w+/);
    await expect.poll(() => app.page.getByTestId('status-connection').textContent()).toMatch(/Connected/);
    expect(await app.page.getByTestId('status-data-dir').textContent()).toContain(app.dataDir);
  });

  it('opens from the private launch page `veil serve --open` gives the browser', async () => {
    const launch = writeLaunchPage(app.bridge.launchUrl);
    const page = await app.browser.newPage();
    try {
      await page.goto(launch.url);
      await page.waitForURL((url) => url.origin === new URL(app.bridge.url).origin);
      await expect.poll(() => page.getByTestId('status-connection').textContent()).toMatch(/Connected/);
      expect(page.url()).not.toContain('token=');
    } finally {
      await page.close();
      launch.remove();
    }
  });

  it('visits every page through the navigation; each shows its own heading and no error', async () => {
    const links = app.page.locator('nav a');
    expect(await links.allTextContents()).toEqual(NAV);
    // The one top-level heading of the page in view (a locator matching two would throw).
    const heading = app.page.locator('main').getByRole('heading', { level: 1 });
    for (const [index, [label, expected]] of PAGES.entries()) {
      const link = links.nth(index);
      const href = await link.getAttribute('href');
      await link.click();
      await expect.poll(() => app.page.url()).toContain(href);
      await expect.poll(() => link.getAttribute('aria-current')).toBe('page');
      await expect.poll(async () => (await heading.textContent())?.trim(), { message: `${label} heading`, timeout: 10_000 }).toBe(expected);
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
