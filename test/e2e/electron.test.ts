/**
 * The desktop app through Playwright's `_electron` (Spectron is retired upstream).
 * Runs where the Electron runtime is installed; elsewhere it says why in one line.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { _electron } from 'playwright-core';
import { describe, expect, it } from 'vitest';

/** The Electron executable if its binary is installed (never triggers Electron's lazy download). */
function electronBinary(): string | null {
  try {
    const dir = dirname(createRequire(import.meta.url).resolve('electron/package.json'));
    const binary = join(dir, 'dist', readFileSync(join(dir, 'path.txt'), 'utf8'));
    return existsSync(binary) ? binary : null;
  } catch {
    return null;
  }
}

const electron = electronBinary();
if (!electron) console.warn('Electron e2e: not run — the Electron runtime is not installed here (its binary download is unavailable; browser mode is tested instead).');

describe.runIf(electron)('desktop app (Electron)', () => {
  it('opens a hardened window that shows the backend in the status bar', async () => {
    execFileSync('npm', ['run', 'build'], { stdio: 'inherit' });
    const dataDir = mkdtempSync(join(tmpdir(), 'veil-electron-'));
    const app = await _electron.launch({ executablePath: electron!, args: ['.'], env: { ...process.env, VEIL_DATA_DIR: dataDir } });
    try {
      const page = await app.firstWindow();
      await expect.poll(() => page.getByTestId('status-backend').textContent()).toMatch(/Model backend: \w+/);
      expect(await page.evaluate(() => typeof (window as unknown as { require?: unknown }).require)).toBe('undefined');
    } finally {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
