/**
 * What the CLI prints, run in-process (runCli), in each test of a file: stdout and stderr go to
 * `out` and `err` (emptied before each test) instead of the terminal; every mock is restored after it.
 */
import { afterEach, beforeEach, vi } from 'vitest';

export function captureCliOutput(): { out: string[]; err: string[] } {
  const captured = { out: [] as string[], err: [] as string[] };
  beforeEach(() => {
    captured.out.length = 0;
    captured.err.length = 0;
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (captured.out.push(String(chunk)), true));
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (captured.err.push(String(chunk)), true));
  });
  afterEach(() => vi.restoreAllMocks());
  return captured;
}
