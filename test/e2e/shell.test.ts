/** The app shell in Chromium through the real bridge: every page, the status bar, the theme. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, startApp, type AppSession } from './harness';

const pages = [
  ['vault', /vault/i],
  ['budget', /budget/i],
  ['synthesize', /synthetic|synthesi/i],
  ['ask', /answer/i],
  ['audit', /audit/i],
  ['models', /model/i],
] as const;

describe.runIf(chromiumAvailable())('app shell in Chromium (browser mode)', () => {
  let app: AppSession;
  beforeAll(async () => {
    app = await startApp();
    await app.open('/vault');
  });
  afterAll(() => app?.close());

  it('scrubs the token from the address bar and shows the backend in the status bar', async () => {
    expect(app.page.url()).not.toContain('token=');
    await expect.poll(() => app.page.getByTestId('status-backend').textContent()).toMatch(/Model backend: \w+/);
    await expect.poll(() => app.page.getByTestId('status-connection').textContent()).toMatch(/Connected/);
    expect(await app.page.getByTestId('status-data-dir').textContent()).toContain(app.dataDir);
  });

  it('visits every page through the navigation', async () => {
    for (const [path, heading] of pages) {
      await app.page.locator(`nav a[href="#/${path}"]`).click();
      await expect.poll(() => app.page.url()).toContain(`#/${path}`);
      await expect.poll(() => app.page.locator('main h1, main h5, main h4').first().textContent()).toMatch(heading);
    }
  });

  it('switches pages with Alt+number and toggles the theme', async () => {
    await app.page.keyboard.press('Alt+2');
    await expect.poll(() => app.page.url()).toContain('#/budget');
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
