/** The planner's request runner: one request in flight, only the newest waiting, stale answers dropped. */
import { describe, expect, it } from 'vitest';
import { LatestOnly, type Outcome } from '../../../../../renderer/src/pages/budget/latestOnly';

function deferred() {
  let resolve!: (value: number) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<number>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('LatestOnly', () => {
  it('runs one request at a time, skips the superseded waiting ones and reports only the newest', async () => {
    const outcomes: Outcome<number>[] = [];
    const runner = new LatestOnly<number>((o) => outcomes.push(o));
    const calls: number[] = [];
    const first = deferred();
    const last = deferred();
    runner.submit(() => (calls.push(1), first.promise));
    await flush();
    runner.submit(() => (calls.push(2), Promise.resolve(2)));
    runner.submit(() => (calls.push(3), last.promise));
    await flush();
    expect(calls).toEqual([1]);
    first.resolve(1);
    await flush();
    expect(calls).toEqual([1, 3]);
    expect(outcomes).toEqual([]);
    last.resolve(3);
    await flush();
    expect(outcomes).toEqual([{ ok: true, value: 3 }]);
  });

  it('reports a failure of the newest request, and nothing after invalidate', async () => {
    const outcomes: Outcome<number>[] = [];
    const runner = new LatestOnly<number>((o) => outcomes.push(o));
    runner.submit(() => Promise.reject(new Error('no dataset')));
    await flush();
    expect(outcomes).toEqual([{ ok: false, error: new Error('no dataset') }]);
    const pending = deferred();
    runner.submit(() => pending.promise);
    await flush();
    runner.invalidate();
    pending.resolve(5);
    await flush();
    expect(outcomes).toHaveLength(1);
  });
});
