/**
 * The budget planner's recompute time (what a slider move costs), as the Budget page asks
 * it: `plan.headline` (noise, ε, budget left, warnings), then `plan.details` for the same
 * request (curves, break-even, sampling modes), and the total — one recompute, target ≤ 0.15 s
 * (the headline alone has the same target). Medians of the CPU time of this process
 * (robust to a shared machine; wall time in the JSON) over REPEATS fresh requests per workload
 * on the SpamAssassin sample with a budget and one earlier release, beside a reference
 * measured in the same run — one PLD ε query of the plan's own event — so the ratio says
 * how many accountant calls a recompute costs. Defaults and the sliders' extremes: 10,000 to
 * 1,000,000 queries, 16 shots × 256 tokens of AdaDPSyn, 512 tokens of DP few-shot.
 * `VEIL_BENCH_PLANNER=extremes` (or `defaults`) runs only those. A request already priced (the slider
 * moved back) is answered from the planner's cache: timed too. Every shape is warmed up
 * (WARM_UP recomputes) before any is measured; the process's first recompute has its own row.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { accountEpsilon } from '../core/accounting';
import { callMethod } from '../electron/services/api';
import { ServiceContext } from '../electron/services/context';
import { ensureDataDir } from '../electron/services/dataDir';
import type { MethodInput } from '../electron/shared/contract';
import { measured, median, timeRuns } from './stats';
import { tableRow, type TableRow } from './table';

const REPEATS = 7;
/** Fresh recomputes of every shape before any is measured. */
const WARM_UP = 3;
const TARGET_SECONDS = 0.15;
const DATASET = 'SpamAssassin sample';
type Request = MethodInput<'plan.headline'>;
type Workload = Request['workload'];

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

const only = process.env.VEIL_BENCH_PLANNER;
const workloads: Record<string, Workload> = only === 'extremes' ? extremes : only === 'defaults' ? defaults : { ...defaults, ...extremes };

/** One slider move as the page makes it: the headline, then the details of the same request. */
async function recompute(ctx: ServiceContext, request: Request) {
  const headline = await measured(() => callMethod(ctx, 'plan.headline', request));
  const details = await measured(() => callMethod(ctx, 'plan.details', request));
  return { headline, details };
}

export async function run(): Promise<object> {
  const dir = mkdtempSync(join(tmpdir(), 'veil-bench-plan-'));
  const ctx = new ServiceContext(ensureDataDir(join(dir, 'data')), 'cli');
  try {
    await callMethod(ctx, 'vault.createSample', {});
    await callMethod(ctx, 'budget.set', { dataset: DATASET, epsilon: 8 });
    await callMethod(ctx, 'ledger.record', { dataset: DATASET, event: { kind: 'pure', epsilon: 0.5 } as never, purpose: 'bench: an earlier release' });
    const results: Record<string, object> = {};
    const table: TableRow[] = [];
    // Warm-up: every shape a few times before any is measured, so that the first shape measured
    // does not pay for compiling the accountant code the others then share. The process's very
    // first recompute is reported on its own row (what the first slider move after start costs).
    let first: Awaited<ReturnType<typeof recompute>> | null = null;
    for (const workload of Object.values(workloads)) {
      for (let i = 0; i < WARM_UP; i++) {
        const run = await recompute(ctx, { dataset: DATASET, epsilon: 3 + 0.01 * i, workload });
        first ??= run;
      }
    }
    const [firstName] = Object.keys(workloads);
    table.push(tableRow(`planner headline + details (CPU), ${firstName}, first request of the process`, first!.headline.cpu + first!.details.cpu, null, null));
    results.firstRecompute = { workload: firstName, headlineCpuSeconds: first!.headline.cpu, detailsCpuSeconds: first!.details.cpu };
    for (const [name, workload] of Object.entries(workloads)) {
      let epsilon = 1;
      const fresh = (): Request => ({ dataset: DATASET, epsilon: (epsilon += 0.01), workload });
      const runs: Awaited<ReturnType<typeof recompute>>[] = [];
      for (let i = 0; i < REPEATS; i++) runs.push(await recompute(ctx, fresh()));
      const { value: plan } = runs[0].headline;
      const cpu = (part: 'headline' | 'details') => median(runs.map((r) => r[part].cpu));
      const wall = (part: 'headline' | 'details') => median(runs.map((r) => r[part].wall));
      const totalCpu = median(runs.map((r) => r.headline.cpu + r.details.cpu));
      const queries: Awaited<ReturnType<typeof measured>>[] = [];
      for (let i = 0; i < REPEATS; i++) queries.push(await measured(async () => accountEpsilon(plan.event, plan.delta, { crossCheck: false })));
      const query = { median: median(queries.map((q) => q.cpu)) }; // CPU, as the recomputes it is compared with
      const revisit = await timeRuns(REPEATS, () => callMethod(ctx, 'plan.headline', { dataset: DATASET, epsilon: 1.01, workload })); // the first run's: cached
      const reference = { what: "one ε query of the plan's event (CPU)", seconds: query.median };
      table.push(tableRow(`planner headline (CPU), ${name}`, cpu('headline'), TARGET_SECONDS, reference));
      table.push(tableRow(`planner details (CPU), ${name}`, cpu('details'), null, reference));
      table.push(tableRow(`planner headline + details (CPU), ${name}`, totalCpu, TARGET_SECONDS, reference));
      if (name in defaults) table.push(tableRow(`planner, ${name}, a value already priced (cache)`, revisit.median, TARGET_SECONDS, reference));
      results[name] = {
        headlineCpuSeconds: cpu('headline'),
        detailsCpuSeconds: cpu('details'),
        totalCpuSeconds: totalCpu,
        headlineWallSeconds: wall('headline'),
        detailsWallSeconds: wall('details'),
        runsCpu: runs.map((r) => ({ headline: r.headline.cpu, details: r.details.cpu })),
        referenceEpsilonQuerySeconds: query.median,
        headlineRatioToOneQuery: cpu('headline') / query.median,
        cachedSeconds: revisit.median,
        targetSeconds: TARGET_SECONDS,
      };
    }
    return { table, ...results };
  } finally {
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
