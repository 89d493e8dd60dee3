/**
 * End-to-end harness: browser mode on a temporary data directory (started through its
 * JS API, stopped by handle) and Debian's Chromium driven by playwright-core.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { serveBrowserMode } from '../../electron/bridge/serve';
import type { Bridge } from '../../electron/bridge/server';
import type { MethodInput, MethodName, MethodOutput } from '../../electron/shared/contract';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Chromium is required in CI; on a developer machine without it the e2e suites say why they did not run. */
export function chromiumAvailable(): boolean {
  if (existsSync(CHROMIUM_PATH)) return true;
  if (process.env.CI) throw new Error(`Chromium not found at ${CHROMIUM_PATH} (CI installs Debian's chromium)`);
  console.warn(`e2e: not run — Chromium not found at ${CHROMIUM_PATH} (apt-get install -y chromium)`);
  return false;
}

export interface AppSession {
  bridge: Bridge;
  dataDir: string;
  browser: Browser;
  page: Page;
  /** Call an API method through the bridge, as the page does (test set-up and checks). */
  call<M extends MethodName>(method: M, input: MethodInput<M>): Promise<MethodOutput<M>>;
  /** Open the app with the token, at an optional hash route (e.g. '/vault'). */
  open(route?: string): Promise<void>;
  close(): Promise<void>;
}

export async function startApp(): Promise<AppSession> {
  const dataDir = mkdtempSync(join(tmpdir(), 'veil-e2e-'));
  const { bridge, stop } = await serveBrowserMode({ dataDir, log: () => undefined });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
  const page = await browser.newPage();
  return {
    bridge,
    dataDir,
    browser,
    page,
    call: async (method, input) => {
      const response = await fetch(new URL(`api/call/${method}`, bridge.url), {
        method: 'POST',
        headers: { authorization: `Bearer ${bridge.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(input),
      });
      const body = (await response.json()) as { result?: unknown; error?: string };
      if (!response.ok) throw new Error(`${method}: ${body.error ?? response.status}`);
      return body.result as never;
    },
    open: async (route = '/vault') => {
      await page.goto(bridge.launchUrl);
      await page.waitForFunction(() => !window.location.hash.includes('token='));
      await page.evaluate((r) => (window.location.hash = `#${r}`), route);
    },
    close: async () => {
      await browser.close();
      await stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
