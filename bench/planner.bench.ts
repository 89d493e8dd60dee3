/**
 * The budget planner's recompute time (what a slider move costs): median seconds of
 * `plan.compute` per workload on the SpamAssassin sample with a budget and one earlier
 * release (target ≈ 0.15 s), beside a reference measured in the same run — one PLD ε query
 * of the plan's own event — so the ratio says how many accountant calls a plan costs.
 * Defaults and the sliders' extremes: 10,000 to 1,000,000 queries, 16 shots × 256 tokens of
 * AdaDPSyn, 512 tokens of DP few-shot. `VEIL_BENCH_PLANNER=extremes` runs only the extremes.
 * A request already priced (the slider moved back) is answered from the plan cache: timed too.
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
import { tableRow, type TableRow } from './table';

const REPEATS = 5;
const DATASET = 'SpamAssassin sample';
type Workload = MethodInput<'plan.compute'>['workload'];

const defaults: Record<string, Workload> = {
  'synth dp-few-shot (gaussian)': { kind: 'synth' },
  'synth adadpsyn': { kind: 'synth', method: 'adadpsyn' },
  'synth dp-few-shot (exponential)': { kind: 'synth', method: 'dp-few-shot-exponential' },
  'answer vote, 100 queries': { kind: 'answer', queries: 100 },
  'answer embedding, 1000 queries': { kind: 'answer', aggregation: 'embedding', queries: 1000 },
  'answer keyword, 100 queries': { kind: 'answer', aggregation: 'keyword', queries: 100 },
};

const extremes: Record<string, Workload> = {
  'answer vote, 10,000 queries': { kind: 'answer', queries: 10_000 },
  'answer vote, 100,000 queries': { kind: 'answer', queries: 100_000 },
  'answer vote, 1,000,000 queries': { kind: 'answer', queries: 1_000_000 },
  'answer keyword, 10,000 queries': { kind: 'answer', aggregation: 'keyword', queries: 10_000 },
  'synth adadpsyn, 16 shots, 256 tokens': { kind: 'synth', method: 'adadpsyn', shots: 16, maxTokens: 256 },
  'synth dp-few-shot (gaussian), 512 tokens': { kind: 'synth', maxTokens: 512 },
};

const workloads: Record<string, Workload> = process.env.VEIL_BENCH_PLANNER === 'extremes' ? extremes : { ...defaults, ...extremes };

export async function run(): Promise<object> {
  const dir = mkdtempSync(join(tmpdir(), 'veil-bench-plan-'));
  const ctx = new ServiceContext(ensureDataDir(join(dir, 'data')), 'cli');
  try {
    await callMethod(ctx, 'vault.createSample', {});
    await callMethod(ctx, 'budget.set', { dataset: DATASET, epsilon: 8 });
    await callMethod(ctx, 'ledger.record', { dataset: DATASET, event: { kind: 'pure', epsilon: 0.5 } as never, purpose: 'bench: an earlier release' });
    const results: Record<string, object> = {};
    const table: TableRow[] = [];
    for (const [name, workload] of Object.entries(workloads)) {
      let epsilon = 1;
      const compute = () => callMethod(ctx, 'plan.compute', { dataset: DATASET, epsilon: (epsilon += 0.01), workload });
      const plan = await compute(); // warm-up: pools indexed, code paths compiled
      const timed = await timeRuns(REPEATS, compute);
      const query = await timeRuns(REPEATS, () => accountEpsilon(plan.event, plan.delta, { crossCheck: false }));
      const revisit = await timeRuns(REPEATS, () => callMethod(ctx, 'plan.compute', { dataset: DATASET, epsilon: 1.01, workload }));
      const reference = { what: "one ε query of the plan's event", seconds: query.median };
      table.push(tableRow(`planner recompute, ${name}`, timed.median, 0.15, reference));
      if (name in defaults) table.push(tableRow(`planner, ${name}, a value already priced (cache)`, revisit.median, 0.15, reference));
      results[name] = {
        medianSeconds: timed.median,
        runs: timed.runs,
        referenceEpsilonQuerySeconds: query.median,
        ratioToOneQuery: timed.median / query.median,
        cachedSeconds: revisit.median,
        targetSeconds: 0.15,
      };
    }
    return { table, ...results };
  } finally {
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
