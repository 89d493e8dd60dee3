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
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { adaDpSynAggregator, defaultAdaDpSynParams, RADIUS_PROBES } from '../../../../core/icl/adaDpSyn';
import { generateDemonstration } from '../../../../core/icl/demonstration';
import { SUM_L2_SENSITIVITY, tangAggregator } from '../../../../core/icl/dpFewShot';
import { inMemoryPool } from '../../../../core/icl/privatePool';
import { defaultTemplate } from '../../../../core/icl/prompts';
import { poolEvent } from '../../../../core/icl/synthesisPlan';
import type { TokenAggregator } from '../../../../core/icl/tokenAggregator';
import type { RandomSource } from '../../../../core/random/randomSource';
import { seededRandom } from '../../../../core/random/seededRandom';
import { fakeModel } from './fakeModel';

/** std: the scale passed to the sampler (undefined for a standard normal scaled by its caller). */
const tap = vi.hoisted(() => ({ draws: [] as { std?: number; random: unknown }[], z: (_draw: number): number => 0 }));

vi.mock('../../../../core/random/samplers', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../../core/random/samplers')>();
  const draw = (random: unknown, std?: number) => {
    const z = tap.z(tap.draws.length);
    tap.draws.push({ std, random });
    return (std ?? 1) * z;
  };
  return { ...real, sampleStandardNormal: (random: unknown) => draw(random), sampleGaussian: (random: unknown, std: number) => draw(random, std) };
});

beforeEach(() => {
  tap.draws.length = 0;
  tap.z = () => 0;
});

const template = defaultTemplate('Classify the e-mail.');
const shape = { teachers: 5, perTeacher: 2, topK: 3, maxTokens: 6 };
const texts = Array.from({ length: 40 }, (_, i) => (i % 2 ? `alpha note ${i}` : `beta note ${i}`));
const vec = (...xs: number[]) => Float64Array.from(xs);

/** The step's randomness: a seeded source behind a wrapper whose identity marks its draws. */
const wrapped = (seed: number): RandomSource => {
  const inner = seededRandom(seed);
  return { cryptographic: false, nextUint32: () => inner.nextUint32(), nextFloat: () => inner.nextFloat() };
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
    // One K-dimensional Gaussian per step; the pool is charged T_max steps per demonstration.
    expect(poolEvent({ units: 40, demonstrations: 1 }, shape, aggregator)).toMatchObject({ kind: 'composed', count: shape.maxTokens });
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
