/**
 * The planner in two requests (plannerHandlers.ts): `plan.headline` and `plan.details` give,
 * for fixed requests, exactly the numbers of the whole plan computed in one go (computePlan,
 * no cache), and the numbers the one-request planner gave before the split
 * (plansBeforeSplit.json: `plan.compute` of commit fcc9cef on this setup, seconds left out) up
 * to deliberate changes: the vote's calibration starts from a better guess (its σ moved by
 * 6e-7, within the 1e-3 tolerance, and what depends on it by as little); the query curve at
 * ≤ 8 queries of Gaussian-type answers comes from a composition instead of one accountant
 * query per count (countedEpsilon.ts; moved by ≤ 3e-5 relative, allowed 1 %, the curve's
 * precision); the
 * other sampling mode's noise and its ε at the plan's noise come from the 1 % accountant
 * (planDetails.ts; moved by ≤ 0.5 %, allowed 2 %: that accountant's slack and tolerance); the
 * count searches (break-even, plans left) ask other counts, answered by other compositions
 * (countedEpsilon.ts: one composition of Gaussian-type steps serves every smaller count), so
 * the crossing they find under the 1 % accountant moved (by ≤ 0.3 % or one count, allowed
 * 1 % + 1), the query curve's counts with the break-even (a point at another count is not
 * compared: its value is the curve's, checked against the accountant in
 * plannerAccounting.test.ts), and an answering plan's ε(δ) curve, read from another
 * composition (by ≤ 0.2 %, allowed 1 %, the curve's precision). The
 * headline and its details are of one calibration (same event, same noise), and the details
 * calibrate nothing again — only the other sampling mode of a synthetic prompt, once.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { callMethod } from '../../../electron/services/api';
import { computePlan } from '../../../electron/services/planner/computePlan';
import { planInputs } from '../../../electron/services/planner/plannerHandlers';
import type { ServiceContext } from '../../../electron/services/context';
import { joinPlan, planRequestSchema, type PlanRequest, type PlanResult } from '../../../electron/shared/api/planner';
import { tempServices, type TempServices } from '../../helpers/services';

const calibrations = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../../electron/services/planner/fastAccounting', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../../electron/services/planner/fastAccounting')>();
  return {
    ...original,
    calibrateTwoStageDetailed: (...args: Parameters<typeof original.calibrateTwoStageDetailed>) => {
      calibrations.count++;
      return original.calibrateTwoStageDetailed(...args);
    },
  };
});

const DATASET = 'SpamAssassin sample';
/** The requests of plansBeforeSplit.json, in its order. */
const requests: PlanRequest[] = [
  { dataset: DATASET, epsilon: 1, workload: { kind: 'synth' } },
  { dataset: DATASET, epsilon: 2, workload: { kind: 'synth', method: 'dp-few-shot-exponential', maxTokens: 16 } },
  { dataset: DATASET, epsilon: 1.5, workload: { kind: 'synth', method: 'adadpsyn', sampling: 'per-demonstration', maxTokens: 16 } },
  { dataset: DATASET, epsilon: 1, workload: { kind: 'answer', queries: 100 } },
  { dataset: DATASET, epsilon: 1.5, workload: { kind: 'answer', aggregation: 'embedding', queries: 1000 } },
  { dataset: DATASET, epsilon: 2, workload: { kind: 'answer', aggregation: 'keyword', queries: 100 } },
  { dataset: DATASET, epsilon: 2, workload: { kind: 'answer', aggregation: 'sga', queries: 30 } },
] as PlanRequest[];
const before = JSON.parse(readFileSync(join(import.meta.dirname, 'plansBeforeSplit.json'), 'utf8')) as Plan[];

let services: TempServices;
let ctx: ServiceContext;

beforeAll(async () => {
  services = tempServices('veil-plan-parts-');
  ctx = services.ctx;
  await callMethod(ctx, 'vault.createSample', {});
  await callMethod(ctx, 'budget.set', { dataset: DATASET, epsilon: 8 });
  await callMethod(ctx, 'ledger.record', { dataset: DATASET, event: { kind: 'pure', epsilon: 0.5 } as never, purpose: 'an earlier release' });
}, 60_000);
afterAll(() => services?.remove());

const withoutSeconds = ({ seconds: _s, ...rest }: PlanResult) => rest;

type Plan = Omit<PlanResult, 'seconds'>;

/** How far a number of the fixture may have moved by the deliberate changes above (relative 1e-5 elsewhere). */
function allowedMove(path: string, plan: Plan, reference: Plan, expected: number): number {
  if (/^\.(breakEven\.(answering\.)?queries|budget\.remainingRuns|queryCurve\.\d+\.queries)$/.test(path)) return 1e-2 * expected + 1;
  if (/^\.privacyCurve\.\d+\.epsilon$/.test(path) && plan.request.workload.kind === 'answer') return 1e-2 * expected;
  const point = /^\.queryCurve\.(\d+)\.answering$/.exec(path);
  if (point) {
    const [now, then] = [plan.queryCurve[Number(point[1])].queries, reference.queryCurve[Number(point[1])].queries];
    if (now !== then) return Infinity; // another count: the point moved along the curve
    return 1e-2 * Math.abs(expected);
  }
  const mode = /^\.samplingModes\.modes\.(\d+)\.(noise\.sigma|noise\.epsilonPerStep|epsilonAtPlannedNoise)$/.exec(path);
  const planned = plan.request.workload.kind === 'synth' ? (plan.request.workload.sampling ?? 'per-token') : null;
  if (mode && plan.samplingModes!.modes[Number(mode[1])].sampling !== planned) return 2e-2 * Math.abs(expected);
  return 1e-5 * Math.abs(expected);
}

/** Where `actual` differs from `expected` beyond `allowedMove`: the paths, empty when none. */
function differences(plan: Plan, reference: Plan): string[] {
  return walk(plan, reference, plan, reference, '');
}

function walk(plan: Plan, reference: Plan, actual: unknown, expected: unknown, path: string): string[] {
  if (typeof expected === 'number' && typeof actual === 'number') {
    return Math.abs(actual - expected) <= allowedMove(path, plan, reference, expected) ? [] : [`${path}: ${actual} ≠ ${expected}`];
  }
  if (typeof expected === 'object' && expected !== null && typeof actual === 'object' && actual !== null) {
    const keys = new Set([...Object.keys(expected), ...Object.keys(actual)]);
    return [...keys].flatMap((k) => walk(plan, reference, (actual as Record<string, unknown>)[k], (expected as Record<string, unknown>)[k], `${path}.${k}`));
  }
  if (expected === undefined && /^\.samplingModes\.modes\.\d+\.planned$/.test(path)) return []; // added since
  return actual === expected ? [] : [`${path}: ${String(actual)} ≠ ${String(expected)}`];
}

describe('plan.headline and plan.details', () => {
  it('give the numbers of the whole plan computed at once, and of the planner before the split, for each workload', async () => {
    expect(before).toHaveLength(requests.length);
    for (const [i, request] of requests.entries()) {
      const headline = await callMethod(ctx, 'plan.headline', request);
      const details = await callMethod(ctx, 'plan.details', request);
      const parsed = planRequestSchema.parse(request);
      const whole = withoutSeconds(computePlan(parsed, await planInputs(ctx, parsed)));
      expect(withoutSeconds(joinPlan(headline, details))).toEqual(whole);
      expect(withoutSeconds(await callMethod(ctx, 'plan.compute', request))).toEqual(whole);
      expect(differences(whole, before[i])).toEqual([]);
    }
  }, 120_000);

  it('agree: the details are of the headline\'s event and noise', async () => {
    for (const request of [requests[0], requests[3], requests[5]]) {
      const headline = await callMethod(ctx, 'plan.headline', { ...request, epsilon: 1.7 });
      const details = await callMethod(ctx, 'plan.details', { ...request, epsilon: 1.7 });
      expect(details.event).toEqual(headline.event);
      expect(details.request).toEqual(headline.request);
      if (headline.event.kind === 'composed') expect(details.breakEven.query).toEqual(headline.event.event); // answering: Q times the compared query
      const own = details.samplingModes?.modes.find((m) => m.sampling === 'per-token');
      if (own) {
        expect(own.noise).toEqual({ kind: 'gaussian', sigma: headline.noise.kind === 'gaussian' ? headline.noise.sigma : NaN });
        expect(own.epsilonAtPlannedNoise).toBe(headline.epsilon.upper);
      }
    }
  }, 120_000);

  it('calibrate once: the details calibrate nothing with the default accountant (the other sampling mode to 1 %)', async () => {
    const synth = { dataset: DATASET, epsilon: 2.3, workload: { kind: 'synth', maxTokens: 16 } } as PlanRequest;
    const answer = { dataset: DATASET, epsilon: 2.3, workload: { kind: 'answer', queries: 40 } } as PlanRequest;
    calibrations.count = 0;
    await callMethod(ctx, 'plan.headline', answer);
    expect(calibrations.count).toBe(1);
    await callMethod(ctx, 'plan.details', answer);
    expect(calibrations.count).toBe(1);
    await callMethod(ctx, 'plan.headline', synth);
    expect(calibrations.count).toBe(2);
    const details = await callMethod(ctx, 'plan.details', synth);
    expect(calibrations.count).toBe(2);
    const other = await callMethod(ctx, 'plan.headline', { ...synth, workload: { ...synth.workload, sampling: 'per-demonstration' } } as PlanRequest);
    expect(calibrations.count).toBe(3);
    expect(other.event).not.toEqual((await callMethod(ctx, 'plan.headline', synth)).event);
    expect(calibrations.count).toBe(3);
    // The details' per-demonstration σ for the same ε: that mode's own plan's, on the safe side by ≤ 2 %.
    const perDemonstration = details.samplingModes!.modes.find((m) => m.sampling === 'per-demonstration')!;
    const ratio = (perDemonstration.noise as { sigma: number }).sigma / (other.noise as { sigma: number }).sigma;
    expect(ratio).toBeGreaterThan(0.999);
    expect(ratio).toBeLessThan(1.02);
    // A ledger change reprices the budget, not the noise.
    await callMethod(ctx, 'ledger.record', { dataset: DATASET, event: { kind: 'pure', epsilon: 0.1 } as never, purpose: 'spent meanwhile' });
    const after = await callMethod(ctx, 'plan.headline', answer);
    expect(calibrations.count).toBe(3);
    expect(after.budget!.spent).toBeGreaterThan(0.5);
  }, 120_000);
});
