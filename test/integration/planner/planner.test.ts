/**
 * The budget planner on a real vault and ledger: calibration meets the target without
 * overspending, a synth plan prices exactly what `synth.plan` (and so the job) charges,
 * the break-even is minimal, the budget numbers agree with the ledger, warnings fire for
 * their reasons, `veil plan --json` prints the same numbers, and plans are saved.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { accountEpsilon } from '../../../core/accounting';
import { composed } from '../../../core/accounting/events';
import { answerQueryEvent } from '../../../core/icl/answering/answerEvents';
import { answeringEvent } from '../../../core/planning/answering';
import { sgaNoise } from '../../../core/planning/sgaEvent';
import { runCli } from '../../../electron/cli/main';
import { callMethod } from '../../../electron/services/api';
import { ServiceContext } from '../../../electron/services/context';
import { ensureDataDir } from '../../../electron/services/dataDir';
import type { PlanResult } from '../../../electron/shared/api/planner';

const DATASET = 'SpamAssassin sample';
let dir: string;
let dataDir: string;
let ctx: ServiceContext;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'veil-plan-'));
  dataDir = ensureDataDir(join(dir, 'data'));
  ctx = new ServiceContext(dataDir, 'cli');
  await callMethod(ctx, 'vault.createSample', {});
  await callMethod(ctx, 'budget.set', { dataset: DATASET, epsilon: 8 });
});
afterAll(async () => {
  await ctx.close();
  rmSync(dir, { recursive: true, force: true });
});

const plan = (epsilon: number, workload: Record<string, unknown>) =>
  callMethod(ctx, 'plan.compute', { dataset: DATASET, epsilon, workload: workload as never });

describe('plan.compute', () => {
  it('a synthetic-prompt plan charges exactly what synth.plan calibrates for the job', async () => {
    const shape = { shots: 2, teachers: 8, perTeacher: 2, topK: 50, maxTokens: 16 };
    const p = await plan(3, { kind: 'synth', ...shape });
    const job = await callMethod(ctx, 'synth.plan', { dataset: DATASET, epsilon: 3, ...shape });
    // Both ledger entries of a run: the noisy pool sizes (charged first, on their own), then the job's reservation.
    expect(p.event).toEqual(job.totalEvent);
    expect(p.event).toMatchObject({ kind: 'sequence', events: [{ kind: 'pure', epsilon: job.sizeEpsilon }, job.event] });
    expect(p.noise).toMatchObject({ kind: 'gaussian', sigma: (job.noise as { sigma: number }).sigma });
    expect(p.epsilon.upper).toBeLessThanOrEqual(3);
    expect(p.epsilon.upper).toBeGreaterThan(3 * 0.99);
    expect(p.samplingRates.map((r) => r.pool)).toEqual(['spam', 'ham']);
  });

  it('without a budget, synth.plan and the planner default δ to defaultDelta(N) over the whole private split', async () => {
    // Subject-level; two subjects under both labels, one only unlabelled: N = 5 subjects (the label pools hold 3 + 3).
    await callMethod(ctx, 'vault.createDataset', { name: 'no budget', labels: ['a', 'b'], privacyUnit: 'subject' });
    const records = [
      { text: 'first note of ann', label: 'a', subject: 'ann' },
      { text: 'second note of ann', label: 'b', subject: 'ann' },
      { text: 'a note of bob', label: 'a', subject: 'bob' },
      { text: 'a note of cy', label: 'b', subject: 'cy' },
      { text: 'an unlabelled note of di', subject: 'di' },
      { text: 'first note of eve', label: 'a', subject: 'eve' },
      { text: 'second note of eve', label: 'b', subject: 'eve' },
    ];
    await callMethod(ctx, 'vault.addRecords', { dataset: 'no budget', records });
    const shape = { shots: 2, teachers: 1, perTeacher: 1, topK: 10, maxTokens: 4 };
    const job = await callMethod(ctx, 'synth.plan', { dataset: 'no budget', epsilon: 3, ...shape });
    const p = await callMethod(ctx, 'plan.compute', { dataset: 'no budget', epsilon: 3, workload: { kind: 'synth', ...shape } });
    expect(job.delta).toBe(1e-5); // min(1/(10·5), 1e-5)
    expect(p.delta).toBe(job.delta);
    expect(p.event).toEqual(job.totalEvent);
  });

  it('an answering plan composes every query and meets the target from below', async () => {
    const p = await plan(2, { kind: 'answer', queries: 300, ensemble: 10, shots: 4 });
    expect(p.event).toMatchObject({ kind: 'composed', count: 300 });
    expect(p.epsilon.upper).toBeLessThanOrEqual(2);
    expect(p.epsilon.upper).toBeGreaterThan(2 * 0.99);
    expect(p.samplingRates[0].q).toBeCloseTo(40 / p.units, 12);
    // The vote: a Poisson-sampled pair of discrete Gaussians, exact by PLD; RDP's cross-check (without amplification) is looser.
    expect(p.event).toMatchObject({ event: { kind: 'poisson-sampled', event: { kind: 'composed', count: 2, event: { kind: 'discrete-gaussian', sensitivity: 1 } } } });
    expect(p.rdpEpsilon).toBeGreaterThanOrEqual(p.epsilon.lower);
  });

  it('embedding aggregation charges ℓ2 sensitivity 2: twice the σ of a unit-sensitivity sum, the vote\'s noise multiplier', async () => {
    const vote = await plan(1, { kind: 'answer', queries: 50, aggregation: 'vote' });
    const embedding = await plan(1, { kind: 'answer', queries: 50, aggregation: 'embedding' });
    expect(embedding.event).toMatchObject({ kind: 'composed', event: { kind: 'poisson-sampled', event: { kind: 'gaussian', sensitivity: 2 } } });
    if (embedding.noise.kind !== 'gaussian' || vote.noise.kind !== 'gaussian') throw new Error('expected Gaussian noise');
    expect(embedding.noise.sigma).toBeCloseTo(2 * embedding.noise.multiplier, 12);
    // Same sampling, same ε: the same privacy loss per query, so the same multiplier σ/Δ (to the calibration tolerance).
    expect(embedding.noise.multiplier / vote.noise.multiplier).toBeCloseTo(1, 2);
  });

  it('prices semantic group aggregation: the planner\'s event is the answering core\'s, calibrated from below by PLD (RDP beside it)', async () => {
    const p = await plan(2, { kind: 'answer', queries: 100, ensemble: 10, shots: 4, aggregation: 'sga', sgaDepth: 2 });
    if (p.noise.kind !== 'sga') throw new Error('expected the clustering\'s noise');
    expect(p.event).toEqual(answeringEvent({ ensemble: 10, shots: 4, aggregation: 'sga', sgaDepth: 2 }, p.units, p.noise.rho, 100));
    expect(p.event).toEqual(composed(answerQueryEvent({ ensemble: 10, shots: 4, method: 'sga', sgaDepth: 2 }, p.units, p.noise.rho, 0), 100));
    expect(p.accountant).toBe('pld');
    expect(p.rdpEpsilon).toBeGreaterThanOrEqual(p.epsilon.lower);
    expect(p.epsilon.upper).toBeLessThanOrEqual(2);
    expect(p.epsilon.upper).toBeGreaterThan(2 * 0.99);
    const { levelEpsilon, sigmaCount, sigmaSum } = sgaNoise(p.noise.rho, 2);
    expect(p.noise).toEqual({ kind: 'sga', rho: p.noise.rho, levelEpsilon, sigmaCount, sigmaSum });
    const looser = await plan(4, { kind: 'answer', queries: 100, ensemble: 10, shots: 4, aggregation: 'sga' });
    expect(looser.noise.kind === 'sga' && looser.noise.rho).toBeGreaterThan(p.noise.rho);
  }, 60_000);

  it('less noise for a larger ε (monotone calibration)', async () => {
    const sigmas: number[] = [];
    for (const epsilon of [0.5, 1, 2, 4]) {
      const p = await plan(epsilon, { kind: 'answer', queries: 50 });
      sigmas.push(p.noise.kind === 'gaussian' ? p.noise.sigma : NaN);
    }
    expect(sigmas.every((s, i) => i === 0 || s < sigmas[i - 1])).toBe(true);
  });

  it('the break-even is the smallest number of answered queries costing more than the synthetic prompt', async () => {
    for (const workload of [{ kind: 'synth', maxTokens: 16 }, { kind: 'answer', queries: 100 }, { kind: 'answer', queries: 100, aggregation: 'keyword' }]) {
      const p = await plan(2, workload);
      const q = p.breakEven.queries!;
      const perQuery = p.breakEven.query;
      if (workload.kind === 'answer' && p.event.kind === 'composed') expect(perQuery).toEqual(p.event.event);
      // Searched with certified upper bounds refined to 1 % (countedEpsilon.ts): Q* − 1 queries
      // certainly cost no more than the prompt, and at Q* the cost is above it to that precision.
      expect(accountEpsilon(composed(perQuery, q - 1), p.delta).bounds.upper).toBeLessThanOrEqual(p.breakEven.synthEpsilon);
      expect(accountEpsilon(composed(perQuery, q), p.delta).bounds.upper).toBeGreaterThan(p.breakEven.synthEpsilon / 1.02);
      const curve = p.queryCurve.map((c) => c.answering);
      expect(curve.every((e, i) => i === 0 || e >= curve[i - 1])).toBe(true);
    }
  });

  it('prices answering at the form\'s maxima: the compared prompt is the largest a synthesis job can run', async () => {
    for (const [shape, teachers, perTeacher] of [
      [{ ensemble: 500, shots: 64 }, 200, 50],
      [{ ensemble: 250, shots: 4 }, 200, 4],
      [{ ensemble: 10, shots: 60 }, 10, 50],
      [{ ensemble: 200, shots: 50 }, 200, 50],
    ] as const) {
      for (const aggregation of ['vote', 'keyword'] as const) {
        const p = await plan(2, { kind: 'answer', queries: 10, aggregation, ...shape });
        expect(p.epsilon.upper).toBeLessThanOrEqual(2);
        expect(p.breakEven.synth).toMatchObject({ teachers, perTeacher });
        expect(p.breakEven.answering).toMatchObject(shape);
        const clamped = teachers < shape.ensemble || perTeacher < shape.shots;
        expect(p.breakEven.basis.includes('the synthesis maximum')).toBe(clamped);
        if (teachers < shape.ensemble) expect(p.breakEven.basis).toContain(`M = ${teachers} teachers (the synthesis maximum) for the ensemble of ${shape.ensemble}`);
        if (perTeacher < shape.shots) expect(p.breakEven.basis).toContain(`N = ${perTeacher} examples per teacher (the synthesis maximum) for ${shape.shots} shots`);
      }
    }
  });

  it('budget numbers agree with the ledger: spent, after the plan, and how many more fit', async () => {
    await callMethod(ctx, 'ledger.record', { dataset: DATASET, event: { kind: 'pure', epsilon: 1 } as never, purpose: 'an earlier external release' });
    const p = await plan(1, { kind: 'answer', queries: 20 });
    const summary = await callMethod(ctx, 'ledger.summary', { dataset: DATASET });
    const remaining = await callMethod(ctx, 'ledger.remaining', { dataset: DATASET, event: p.event });
    expect(p.budget).toMatchObject({ cap: 8, spent: summary.spent.epsilon.upper });
    // The planner counts with the 1 % certified accountant: never more than the ledger, at most a little fewer.
    expect(p.budget!.remainingRuns).toBeLessThanOrEqual(remaining.count);
    expect(p.budget!.remainingRuns).toBeGreaterThanOrEqual(Math.floor(0.9 * remaining.count));
    expect(p.budget!.afterPlan).toBeGreaterThan(p.budget!.spent);
    expect(p.budget!.remainingRuns).toBeGreaterThan(0);
  });

  it('warns with reasons: δ ≥ 1/N, ε above common practice, high sampling rate, over the cap', async () => {
    const p = await callMethod(ctx, 'plan.compute', { dataset: DATASET, epsilon: 12, delta: 0.01, workload: { kind: 'answer', ensemble: 200, shots: 10, queries: 5 } });
    const text = p.warnings.join('\n');
    expect(text).toMatch(/δ = 0\.01 ≥ 1\/N/);
    expect(text).toMatch(/above common practice/);
    expect(text).toMatch(/sampling rate q = .* too high/);
    expect(text).toMatch(/above the cap 8/);
    const calm = await plan(1, { kind: 'answer', queries: 10 });
    expect(calm.warnings).toEqual([]);
  });
});

describe('plan.compute cache (planCache.ts)', () => {
  it('answers a repeated request with the same plan and reprices when the ledger moves', async () => {
    await callMethod(ctx, 'vault.createDataset', { name: 'cached', labels: ['a', 'b'] });
    await callMethod(ctx, 'vault.addRecords', { dataset: 'cached', records: Array.from({ length: 40 }, (_, i) => ({ text: `note ${i}`, label: i % 2 ? 'a' : 'b' })) });
    await callMethod(ctx, 'budget.set', { dataset: 'cached', epsilon: 8 });
    const request = { dataset: 'cached', epsilon: 2, workload: { kind: 'answer', queries: 50 } as never };
    const first = await callMethod(ctx, 'plan.compute', request);
    const again = await callMethod(ctx, 'plan.compute', request);
    expect({ ...again, seconds: 0 }).toEqual({ ...first, seconds: 0 });
    await callMethod(ctx, 'ledger.record', { dataset: 'cached', event: { kind: 'pure', epsilon: 1 } as never, purpose: 'spent meanwhile' });
    const after = await callMethod(ctx, 'plan.compute', request);
    expect(after.budget!.spent).toBeGreaterThan(first.budget!.spent);
    expect(after.budget!.afterPlan).toBeGreaterThan(first.budget!.afterPlan);
    expect(after.event).toEqual(first.event); // the noise is calibrated to the request, not to what is left
  });
});

describe('veil plan', () => {
  it('prints the same numbers as the API', async () => {
    const printed: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (printed.push(String(chunk)), true));
    try {
      const args = ['plan', '--workload', 'answer', '--dataset', DATASET, '--epsilon', '1.5', '--queries', '40', '--aggregation', 'embedding', '--data-dir', dataDir, '--json'];
      expect(await runCli(args)).toBe(0);
    } finally {
      vi.restoreAllMocks();
    }
    const cli = JSON.parse(printed.join('')) as PlanResult & { saved: null };
    const api = await plan(1.5, { kind: 'answer', queries: 40, aggregation: 'embedding' });
    const strip = ({ seconds: _s, ...rest }: PlanResult) => rest;
    expect(strip(cli)).toEqual({ ...strip(api), saved: null });
  });

  it('plans answering at the largest ensemble and shots the form allows', async () => {
    for (const flags of [['--ensemble', '250'], ['--shots', '60'], ['--ensemble', '500', '--shots', '64']]) {
      const printed: string[] = [];
      vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (printed.push(String(chunk)), true));
      try {
        const args = ['plan', '--workload', 'answer', '--dataset', DATASET, '--epsilon', '1', '--queries', '20', ...flags, '--data-dir', dataDir, '--json'];
        expect(await runCli(args)).toBe(0);
      } finally {
        vi.restoreAllMocks();
      }
      const cli = JSON.parse(printed.join('')) as PlanResult;
      expect(cli.epsilon.upper).toBeLessThanOrEqual(1);
      expect(cli.breakEven.synth.teachers).toBeLessThanOrEqual(200);
      expect(cli.breakEven.synth.perTeacher).toBeLessThanOrEqual(50);
    }
  });

  it('saves, lists and deletes plans; an unpriceable plan is not saved', async () => {
    const saved = await callMethod(ctx, 'plan.save', { name: 'weekly answers', request: { dataset: DATASET, epsilon: 1, workload: { kind: 'answer', queries: 70 } } });
    const listed = await callMethod(ctx, 'plan.list', { dataset: DATASET });
    expect(listed[0]).toMatchObject({ id: saved.id, name: 'weekly answers', request: { workload: { kind: 'answer', queries: 70 } } });
    await callMethod(ctx, 'vault.createDataset', { name: 'empty', labels: ['a'] });
    await expect(callMethod(ctx, 'plan.save', { name: 'x', request: { dataset: 'empty', epsilon: 1, workload: { kind: 'answer' } } })).rejects.toThrow(/empty/);
    expect(await callMethod(ctx, 'plan.delete', { id: saved.id })).toEqual({ deleted: true });
    expect((await callMethod(ctx, 'plan.list', { dataset: DATASET })).some((p) => p.id === saved.id)).toBe(false);
  });
});
