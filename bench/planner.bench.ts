/**
 * The budget planner's recompute time (what a slider move costs): median seconds of
 * `plan.compute` per workload on the SpamAssassin sample with a budget and one earlier
 * release (target ≈ 0.15 s), beside a reference measured in the same run — one PLD ε query
 * of the plan's own event — so the ratio says how many accountant calls a plan costs.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { accountEpsilon } from '../core/accounting';
import { callMethod } from '../electron/services/api';
import { ServiceContext } from '../electron/services/context';
import { ensureDataDir } from '../electron/services/dataDir';
import type { MethodInput } from '../electron/shared/contract';
import { timeRuns } from './stats';

const REPEATS = 5;
const DATASET = 'SpamAssassin sample';
type Workload = MethodInput<'plan.compute'>['workload'];

const workloads: Record<string, Workload> = {
  'synth dp-few-shot (gaussian)': { kind: 'synth' },
  'synth adadpsyn': { kind: 'synth', method: 'adadpsyn' },
  'synth dp-few-shot (exponential)': { kind: 'synth', method: 'dp-few-shot-exponential' },
  'answer vote, 100 queries': { kind: 'answer', queries: 100 },
  'answer embedding, 1000 queries': { kind: 'answer', aggregation: 'embedding', queries: 1000 },
  'answer keyword, 100 queries': { kind: 'answer', aggregation: 'keyword', queries: 100 },
};

export async function run(): Promise<object> {
  const dir = mkdtempSync(join(tmpdir(), 'veil-bench-plan-'));
  const ctx = new ServiceContext(ensureDataDir(join(dir, 'data')), 'cli');
  try {
    await callMethod(ctx, 'vault.createSample', {});
    await callMethod(ctx, 'budget.set', { dataset: DATASET, epsilon: 8 });
    await callMethod(ctx, 'ledger.record', { dataset: DATASET, event: { kind: 'pure', epsilon: 0.5 } as never, purpose: 'bench: an earlier release' });
    const results: Record<string, object> = {};
    for (const [name, workload] of Object.entries(workloads)) {
      let epsilon = 1;
      const compute = () => callMethod(ctx, 'plan.compute', { dataset: DATASET, epsilon: (epsilon += 0.01), workload });
      const plan = await compute(); // warm-up: pools indexed, code paths compiled
      const timed = await timeRuns(REPEATS, compute);
      const query = await timeRuns(REPEATS, () => accountEpsilon(plan.event, plan.delta, { crossCheck: false }));
      results[name] = {
        medianSeconds: timed.median,
        runs: timed.runs,
        referenceEpsilonQuerySeconds: query.median,
        ratioToOneQuery: timed.median / query.median,
        targetSeconds: 0.15,
      };
    }
    return results;
  } finally {
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
