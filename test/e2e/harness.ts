/**
 * End-to-end harness: browser mode on a temporary data directory (started through its
 * JS API, stopped by handle) and Debian's Chromium driven by playwright-core, with a
 * problem watcher: every API response ≥ 400, console error or uncaught error on the app
 * page fails the test that caused it (`failOnProblems`).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { afterEach, expect } from 'vitest';
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
  /** The current test provokes an error on purpose: problems matching `pattern` do not fail it. */
  allowProblems(pattern: RegExp): void;
  /** The problems seen since the last call, less the allowed ones (the allowance ends here). */
  takeProblems(): string[];
  close(): Promise<void>;
}

/** Records what goes wrong on `page`: failed API calls, console errors, uncaught errors. */
function watchProblems(page: Page): Pick<AppSession, 'allowProblems' | 'takeProblems'> {
  const problems: string[] = [];
  let allowed: RegExp[] = [];
  page.on('response', (response) => {
    if (new URL(response.url()).pathname.startsWith('/api/') && response.status() >= 400) {
      problems.push(`HTTP ${response.status()} from ${response.request().method()} ${response.url()}`);
    }
  });
  page.on('console', (message) => {
    const where = message.location().url;
    // Chromium's own favicon probe (renderer/index.html declares no icon) is not an app error.
    if (message.type() === 'error' && !where.endsWith('/favicon.ico')) problems.push(`console error: ${message.text()} (${where})`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  return {
    allowProblems: (pattern) => void allowed.push(pattern),
    takeProblems: () => {
      const seen = problems.splice(0).filter((problem) => !allowed.some((pattern) => pattern.test(problem)));
      allowed = [];
      return seen;
    },
  };
}

/** The value cell of the row headed `label` in a key/value table (renderer KeyValueTable). */
export function valueOf(table: Locator, label: string): Locator {
  return table.getByRole('row').filter({ has: table.page().getByRole('rowheader', { name: label, exact: true }) }).getByRole('cell');
}

/** Fails each test of the calling suite on the problems it caused on the app page. */
export function failOnProblems(app: () => AppSession | undefined): void {
  afterEach(() => {
    const session = app();
    if (session) expect(session.takeProblems(), 'problems on the app page').toEqual([]);
  });
}

export async function startApp(): Promise<AppSession> {
  const dataDir = mkdtempSync(join(tmpdir(), 'veil-e2e-'));
  const { bridge, stop } = await serveBrowserMode({ dataDir, log: () => undefined });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
  const page = await browser.newPage();
  return {
    ...watchProblems(page),
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
