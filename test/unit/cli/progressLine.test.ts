/** CLI progress: \r updates only on a terminal; elsewhere one line per stage and a final line (it was one long line of \r updates in logs). */
import { describe, expect, it } from 'vitest';
import { progressLine } from '../../../electron/cli/progressLine';

function run(isTTY: boolean): string {
  let out = '';
  const progress = progressLine({ isTTY, write: (text: string) => (out += text) });
  progress.update('demonstration 0', '0/2 demonstrations, 1/10 token steps');
  progress.update('demonstration 0', '0/2 demonstrations, 5/10 token steps');
  progress.update('demonstration 1', '1/2 demonstrations, 6/10 token steps');
  progress.update('demonstration 1', '1/2 demonstrations, 10/10 token steps');
  progress.end();
  return out;
}

describe('progressLine', () => {
  it('writes one line per stage and the last state when stderr is not a terminal', () => {
    const out = run(false);
    expect(out).not.toContain('\r');
    expect(out.split('\n')).toEqual(['0/2 demonstrations, 1/10 token steps', '1/2 demonstrations, 6/10 token steps', '1/2 demonstrations, 10/10 token steps', '']);
  });

  it('rewrites one line in place on a terminal', () => {
    expect(run(true)).toBe('\r0/2 demonstrations, 1/10 token steps\r0/2 demonstrations, 5/10 token steps\r1/2 demonstrations, 6/10 token steps\r1/2 demonstrations, 10/10 token steps\n');
  });
});
