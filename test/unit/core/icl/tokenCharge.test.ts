/**
 * Each token step charges the event its noise actually spends. The Gaussian samplers are
 * tapped: every draw is recorded with the RandomSource it came from — the step's source,
 * wrapped here so the draws are attributed to it — and its standard normal is scripted
 * (0 by default), so that counts and scales can be read off and compared with the event:
 *
 * - Tang (Gaussian): K draws per step (one K-dimensional Gaussian on the sum of teacher
 *   vectors), each of std σ, where the step is charged PoissonSampled(q, Gaussian(σ, √2)).
 * - AdaDPSyn: per step at most the maximum count of mechanisms the step is charged for
 *   (⌈log₂ G⌉ probes, one mean, T̂ coverage checks, T̂ projected means); the draws that ran,
 *   each with its sensitivity, compose to a precision ≤ 1/σ_eff² (equal when all ran),
 *   where the step is charged PoissonSampled(q, Gaussian(σ_eff, 1)).
 * - Tang, exponential variant: one noisy selection per step (report-noisy-max with
 *   exponential noise ≡ permute-and-flip), K uniforms → K Exp draws of scale 2Δ∞/ε with
 *   Δ∞ = 1, where the step is charged PoissonSampled(q, PureDp(ε)). The uniforms behind the
 *   Exp noise and the selection mechanisms are tapped the same way.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { composed, poissonSampled, pureDp, type PrivacyEvent } from '../../../../core/accounting/events';
import { adaDpSynAggregator, defaultAdaDpSynParams, RADIUS_PROBES } from '../../../../core/icl/adaDpSyn';
import { generateDemonstration, samplingRate } from '../../../../core/icl/demonstration';
import { SUM_L2_SENSITIVITY, SUM_LINF_SENSITIVITY, tangAggregator } from '../../../../core/icl/dpFewShot';
import { inMemoryPool, type PrivatePool } from '../../../../core/icl/privatePool';
import { defaultTemplate } from '../../../../core/icl/prompts';
import { poolEvent } from '../../../../core/icl/synthesisPlan';
import { synthesizeDemonstrations } from '../../../../core/icl/synthesize';
import type { TokenAggregator } from '../../../../core/icl/tokenAggregator';
import type { RandomSource } from '../../../../core/random/randomSource';
import { allowSeededOnPrivatePath } from '../../../../core/random/privatePathRandom';
import { seededRandom } from '../../../../core/random/seededRandom';
import { synthesisRequestSchema } from '../../../../electron/shared/api/synthesis';
import { priceSynthesis } from '../../../../electron/services/synthesis/synthesisPricing';
import type { SynthesisDataset } from '../../../../electron/services/synthesis/synthesisSource';
import { fakeModel } from './fakeModel';

/**
 * draws: Gaussian draws (std: the scale passed to the sampler, undefined for a standard
 * normal scaled by its caller), with z scripting their standard normals. uniforms: every
 * open-interval uniform (the source of Exp noise, −log u), scripted by u (undefined: the
 * real draw). selections: every call of an exponential-type selection mechanism.
 */
const tap = vi.hoisted(() => ({
  draws: [] as { std?: number; random: unknown }[],
  z: (_draw: number): number => 0,
  uniforms: [] as { random: unknown }[],
  u: (_draw: number): number | undefined => undefined,
  selections: [] as { mechanism: string; epsilon: number; sensitivity: number; monotone?: boolean; candidates: number; random: unknown }[],
}));

vi.mock('../../../../core/random/samplers', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../../core/random/samplers')>();
  const draw = (random: unknown, std?: number) => {
    const z = tap.z(tap.draws.length);
    tap.draws.push({ std, random });
    return (std ?? 1) * z;
  };
  return { ...real, sampleStandardNormal: (random: unknown) => draw(random), sampleGaussian: (random: unknown, std: number) => draw(random, std) };
});

vi.mock('../../../../core/random/uniform', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../../core/random/uniform')>();
  return {
    ...real,
    uniformOpen: (random: RandomSource) => {
      const scripted = tap.u(tap.uniforms.length);
      tap.uniforms.push({ random });
      return scripted ?? real.uniformOpen(random);
    },
  };
});

/** Wraps a selection mechanism so every call is recorded (hoisted: the mock factories use it). */
const recorded = vi.hoisted(
  () =>
    <F extends (scores: ArrayLike<number>, params: { epsilon: number; sensitivity: number; monotone?: boolean }, random?: RandomSource) => unknown>(mechanism: string, real: F): F =>
      ((scores: ArrayLike<number>, params: { epsilon: number; sensitivity: number; monotone?: boolean }, random?: RandomSource) => {
        tap.selections.push({ mechanism, epsilon: params.epsilon, sensitivity: params.sensitivity, monotone: params.monotone, candidates: scores.length, random });
        return real(scores, params, random);
      }) as F,
);

vi.mock('../../../../core/mechanisms/reportNoisyMax', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../../core/mechanisms/reportNoisyMax')>();
  return { ...real, reportNoisyMaxExponential: recorded('report-noisy-max', real.reportNoisyMaxExponential) };
});

vi.mock('../../../../core/mechanisms/permuteAndFlip', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../../core/mechanisms/permuteAndFlip')>();
  return { ...real, permuteAndFlip: recorded('permute-and-flip', real.permuteAndFlip) };
});

beforeEach(() => {
  tap.draws.length = 0;
  tap.z = () => 0;
  tap.uniforms.length = 0;
  tap.u = () => undefined;
  tap.selections.length = 0;
});

const template = defaultTemplate('Classify the e-mail.');
const shape = { teachers: 5, perTeacher: 2, topK: 3, maxTokens: 6 };
const texts = Array.from({ length: 40 }, (_, i) => (i % 2 ? `alpha note ${i}` : `beta note ${i}`));
const vec = (...xs: number[]) => Float64Array.from(xs);

/** The step's randomness: a seeded source behind a wrapper whose identity marks its draws. */
const wrapped = (seed: number): RandomSource => {
  const inner = seededRandom(seed);
  return allowSeededOnPrivatePath({ cryptographic: false, nextUint32: () => inner.nextUint32(), nextFloat: () => inner.nextFloat() }, 'test');
};

/** Draws per token step of one demonstration, and the steps it ran. */
async function drawsPerStep(aggregator: TokenAggregator, random: RandomSource): Promise<number[]> {
  const counts: number[] = [];
  let mark = 0;
  const { steps } = await generateDemonstration({
    model: fakeModel(), template, pool: inMemoryPool(texts), label: 'spam', shape, aggregator, random,
    onToken: () => {
      counts.push(tap.draws.length - mark);
      mark = tap.draws.length;
    },
  });
  if (counts.length < steps) counts.push(tap.draws.length - mark);
  expect(tap.draws.every((d) => d.random === random)).toBe(true);
  return counts;
}

describe('Tang et al. (Gaussian) token step', () => {
  const sigma = 0.7;
  const aggregator = tangAggregator({ kind: 'gaussian', sigma });

  it('makes K draws per step from the step\'s source, at most T_max steps, as charged', async () => {
    const counts = await drawsPerStep(aggregator, wrapped(1));
    expect(counts.length).toBeGreaterThan(0);
    expect(counts.length).toBeLessThanOrEqual(shape.maxTokens);
    expect(counts.every((n) => n === shape.topK)).toBe(true);
    // One K-dimensional Gaussian per step; a label's pool is charged T_max steps per
    // demonstration, a generation task's (no label: input, then output) 2·T_max.
    expect(poolEvent({ label: 'spam', units: 40, demonstrations: 1 }, shape, aggregator)).toMatchObject({ kind: 'composed', count: shape.maxTokens });
    expect(poolEvent({ units: 40, demonstrations: 1 }, shape, aggregator)).toMatchObject({ kind: 'composed', count: 2 * shape.maxTokens });
  });

  it('draws with std exactly the charged σ, at the charged ℓ2 sensitivity √2', () => {
    // Two teachers sum to [1.2, 0.6, 0.2]: candidate 1 wins iff its noise σ·z exceeds the gap 0.6.
    const vectors = [vec(0.6, 0.4, 0), vec(0.6, 0.2, 0.2)];
    const chosen = (z1: number) => {
      tap.z = (i) => (i % 3 === 1 ? z1 : 0);
      return aggregator.choose(vectors, wrapped(2));
    };
    const threshold = 0.6 / sigma;
    expect(chosen(threshold * (1 + 1e-9))).toBe(1);
    expect(chosen(threshold * (1 - 1e-9))).toBe(0);
    // The noise std is σ; one teacher's probability vector moves the sum by at most √2 in ℓ2.
    expect(Math.hypot(1, 1)).toBe(SUM_L2_SENSITIVITY);
    expect(aggregator.stepEvent(0.1)).toEqual({
      kind: 'poisson-sampled', q: 0.1, neighbouring: 'add-remove',
      event: { kind: 'gaussian', sigma, sensitivity: SUM_L2_SENSITIVITY, neighbouring: 'add-remove' },
    });
  });
});

describe('AdaDPSyn token step', () => {
  const sigma = 0.8;
  const rounds = 3;
  const params = { ...defaultAdaDpSynParams(sigma), rounds, shrink: 0.5 };
  const aggregator = adaDpSynAggregator(params);
  const K = 4;
  const maxDraws = RADIUS_PROBES + K + rounds * (1 + K);

  /**
   * Precision Σ (Δ/std)² of the mechanisms behind the recorded draws, in their order:
   * probes (Δ 2), the first mean (K draws, Δ √2), then per round a coverage check (Δ 1)
   * and a projected mean (K draws, Δ 2r' with r' = max(r*, λ^k·√2); r* ≪ r' here).
   */
  function precision(draws: { std?: number }[]) {
    const std = draws.map((d) => d.std!);
    let probes = 0;
    while (std[probes] === std[0] && probes < RADIUS_PROBES) probes++;
    const ran = (draws.length - probes - K) / (1 + K);
    expect(Number.isInteger(ran) && ran <= rounds).toBe(true);
    let total = probes * (2 / std[0]) ** 2 + (Math.SQRT2 / std[probes]) ** 2;
    for (let k = 1; k <= ran; k++) {
      const at = probes + K + (k - 1) * (1 + K);
      total += (1 / std[at]) ** 2 + ((2 * Math.SQRT2 * 0.5 ** k) / std[at + 1]) ** 2;
    }
    return { probes, ran, total };
  }

  it('when every mechanism runs, its draws compose to exactly the charged σ_eff', () => {
    const tight = Array.from({ length: 10 }, (_, i) => vec(0.1 + i * 1e-4, 0.7 - i * 1e-4, 0.1, 0.1));
    aggregator.choose(tight, wrapped(3));
    expect(tap.draws).toHaveLength(maxDraws);
    const { probes, ran, total } = precision(tap.draws);
    expect([probes, ran]).toEqual([RADIUS_PROBES, rounds]);
    expect(total * sigma ** 2).toBeCloseTo(1, 9);
    expect(aggregator.stepEvent(0.1)).toMatchObject({ kind: 'poisson-sampled', q: 0.1, event: { kind: 'gaussian', sigma, sensitivity: 1 } });
  });

  it('when the coverage check stops early, fewer draws run than the maximum charged', () => {
    const spread = [vec(0.7, 0.1, 0.1, 0.1), vec(0.1, 0.7, 0.1, 0.1), vec(0.1, 0.1, 0.7, 0.1), vec(0.1, 0.1, 0.1, 0.7)];
    aggregator.choose(spread, wrapped(4));
    expect(tap.draws.length).toBeLessThan(maxDraws);
    expect(precision(tap.draws).total * sigma ** 2).toBeLessThan(1);
  });

  it('every token step of a demonstration draws at most the maximum charged', async () => {
    const counts = await drawsPerStep(adaDpSynAggregator({ ...params, rounds }), wrapped(5));
    expect(counts.length).toBeGreaterThan(0);
    for (const n of counts) expect(n).toBeLessThanOrEqual(RADIUS_PROBES + shape.topK + rounds * (1 + shape.topK));
  });
});

describe('Tang et al. exponential variant (report-noisy-max ≡ permute-and-flip) token step', () => {
  const epsilon = 0.9;
  const aggregator = tangAggregator({ kind: 'exponential', epsilon });

  /** Selections and uniforms per token step of the demonstrations of one pool, and the steps run. */
  async function tallyPerStep(agg: TokenAggregator, pool: PrivatePool, demonstrations: number, random: RandomSource) {
    const selections: number[] = [];
    const uniforms: number[] = [];
    let marks = { s: 0, u: 0 };
    const close = () => {
      selections.push(tap.selections.length - marks.s);
      uniforms.push(tap.uniforms.length - marks.u);
      marks = { s: tap.selections.length, u: tap.uniforms.length };
    };
    let steps = 0;
    for (let d = 0; d < demonstrations; d++) {
      const before = selections.length;
      const run = await generateDemonstration({ model: fakeModel(), template, pool, label: 'spam', shape, aggregator: agg, random, onToken: close });
      if (selections.length - before < run.steps) close();
      steps += run.steps;
    }
    return { selections, uniforms, steps };
  }

  it('makes exactly one noisy selection per step, over the K candidates, from the step\'s source; T_max steps per demonstration are charged', async () => {
    const random = wrapped(6);
    const demonstrations = 3;
    const { selections, uniforms, steps } = await tallyPerStep(aggregator, inMemoryPool(texts), demonstrations, random);
    expect(steps).toBeGreaterThan(0);
    expect(steps).toBeLessThanOrEqual(shape.maxTokens * demonstrations);
    expect(selections).toHaveLength(steps);
    expect(selections.every((n) => n === 1)).toBe(true);
    // One Exp noise per candidate: K uniforms per step, all from the step's source.
    expect(uniforms.every((n) => n === shape.topK)).toBe(true);
    expect(tap.uniforms.every((d) => d.random === random)).toBe(true);
    expect(tap.draws).toHaveLength(0);
    for (const s of tap.selections) {
      expect(s).toMatchObject({ epsilon, sensitivity: SUM_LINF_SENSITIVITY, candidates: shape.topK, random });
      expect(s.monotone).toBeFalsy();
    }
    // Charged: T_max steps per demonstration of PoissonSampled(q, PureDp(ε)), whatever ran.
    const q = samplingRate(shape, texts.length);
    expect(poolEvent({ label: 'spam', units: texts.length, demonstrations }, shape, aggregator)).toEqual(
      composed(poissonSampled(q, pureDp(epsilon)), shape.maxTokens * demonstrations),
    );
  });

  it('adds Exp noise of scale exactly 2Δ∞/ε of the charged pure ε, at the ℓ∞ sensitivity 1 of the teacher sum', () => {
    const charged = aggregator.stepEvent(0.1);
    expect(charged).toEqual({
      kind: 'poisson-sampled', q: 0.1, neighbouring: 'add-remove',
      event: { kind: 'pure', epsilon, neighbouring: 'add-remove' },
    });
    const chargedEpsilon = (charged as { event: { epsilon: number } }).event.epsilon;
    // Two teachers sum to [1.2, 0.6, 0.2]; candidates 0 and 2 get u = 1 (no noise), candidate 1
    // gets u = e^{−x}, i.e. noise scale·x: it wins iff scale·x exceeds the gap 0.6.
    const vectors = [vec(0.6, 0.4, 0), vec(0.6, 0.2, 0.2)];
    const chosen = (x: number) => {
      tap.u = (i) => (i % 3 === 1 ? Math.exp(-x) : 1);
      return aggregator.choose(vectors, wrapped(7));
    };
    const scale = (2 * SUM_LINF_SENSITIVITY) / chargedEpsilon;
    const threshold = 0.6 / scale;
    expect(chosen(threshold * (1 + 1e-9))).toBe(1);
    expect(chosen(threshold * (1 - 1e-9))).toBe(0);
    expect(tap.uniforms).toHaveLength(2 * 3);
    expect(tap.selections).toHaveLength(2);
    // One teacher's probability vector (entries in [0, 1]) moves each coordinate of the sum by at most 1.
    expect(SUM_LINF_SENSITIVITY).toBe(1);
  });

  it('a priced job runs, per label pool, at most the charged count of selections at the charged ε and at most the charged q', async () => {
    const dataset: SynthesisDataset = { id: 1, name: 'mail', createdAt: '2026-01-01T00:00:00.000Z', task: 'classification', labels: ['spam', 'ham'], privacyUnit: 'record' };
    const request = synthesisRequestSchema.parse({
      dataset: 'mail', method: 'dp-few-shot-exponential', shots: 3, epsilon: 4, delta: 1e-5, ...shape,
    });
    const units = new Map<string | undefined, number>([['spam', 40], ['ham', 25]]);
    const priced = priceSynthesis(request, dataset, units, null, 65);
    // The ledger is charged the release of the noisy pool sizes (pure ε 0.1, its own entry), then
    // the job's one event dominating both pools: the largest q, T_max × the most demonstrations.
    const [sizes, steps] = (priced.plan.totalEvent as Extract<PrivacyEvent, { kind: 'sequence' }>).events;
    expect(sizes).toEqual(pureDp(0.1));
    expect(steps).toEqual(priced.plan.event);
    const event = steps as Extract<PrivacyEvent, { kind: 'composed' }>;
    const step = event.event as Extract<PrivacyEvent, { kind: 'poisson-sampled' }>;
    const perToken = (step.event as Extract<PrivacyEvent, { kind: 'pure' }>).epsilon;
    expect(event).toEqual(composed(poissonSampled(samplingRate(shape, 25), pureDp(perToken)), shape.maxTokens * 2));
    expect(priced.plan.noise).toEqual({ kind: 'exponential', epsilonPerToken: perToken });
    expect(priced.plan.epsilon.upper).toBeLessThanOrEqual(4);

    const byPool = new Map<string, { selections: number; rates: number[] }>();
    let current = '';
    const pools = priced.pools.map((plan) => {
      const inner = inMemoryPool(texts.slice(0, plan.units));
      const pool: PrivatePool = {
        units: inner.units,
        sampleTeachers: (rate, teachers, random) => {
          current = plan.label!;
          byPool.get(current)!.rates.push(rate);
          return inner.sampleTeachers(rate, teachers, random);
        },
      };
      byPool.set(plan.label!, { selections: 0, rates: [] });
      return { plan, pool };
    });
    const random = wrapped(8);
    let attributed = 0;
    const attribute = () => {
      for (; attributed < tap.selections.length; attributed++) byPool.get(current)!.selections++;
    };
    await synthesizeDemonstrations({
      model: fakeModel(), template, pools, shape: priced.shape, aggregator: priced.aggregator, random, onProgress: attribute,
    });
    attribute();
    expect([...byPool.keys()]).toEqual(['spam', 'ham']);
    for (const [, pool] of byPool) {
      expect(pool.selections).toBeGreaterThan(0);
      expect(pool.selections).toBeLessThanOrEqual(event.count);
      expect(pool.selections).toBe(pool.rates.length);
      for (const rate of pool.rates) expect(rate).toBeLessThanOrEqual(step.q);
    }
    for (const s of tap.selections) expect(s).toMatchObject({ epsilon: perToken, sensitivity: SUM_LINF_SENSITIVITY, candidates: shape.topK, random });
    expect(tap.uniforms).toHaveLength(tap.selections.length * shape.topK);
    // The priced aggregator's noise has the scale of the charged ε.
    tap.uniforms.length = 0;
    const threshold = 0.6 / ((2 * SUM_LINF_SENSITIVITY) / perToken);
    const choose = (x: number) => {
      tap.u = (i) => (i % 3 === 1 ? Math.exp(-x) : 1);
      return priced.aggregator.choose([vec(0.6, 0.4, 0), vec(0.6, 0.2, 0.2)], random);
    };
    expect(choose(threshold * (1 + 1e-9))).toBe(1);
    expect(choose(threshold * (1 - 1e-9))).toBe(0);
  });
});
