/**
 * AdaDPSyn (Gao et al., "Data-Adaptive Differentially Private Prompt Synthesis for
 * In-Context Learning", ICLR 2025), the aggregation of one token step: when the teachers
 * agree, their vectors sit in a small ball, and averaging their projections onto that ball
 * needs far less noise than averaging the raw vectors.
 *
 * Per step, on the M teacher vectors x₁…x_M (probability vectors over the K candidates):
 *   1. GoodRadius (NSV16 score L(r), Δ = 2, pass when ≥ t − 1) by a fixed-length binary search over a
 *      data-independent radius grid, each probe L(r) + N(0, (2·z_r)²)     → target r*;
 *   2. first noisy mean c = (Σxᵢ + N(0, (√2·z_m)² I)) / M                    (Δ₂ = √2);
 *   3. up to T̂ rounds: r' = max(r*, λ·r); coverage check #{‖xᵢ − c‖ ≤ r'} + N(0, z_c²)
 *      ≥ ρ·M (Δ = 1), else stop; c ← c + (Σ(Π_{B(c,r')}(xᵢ) − c) + N(0, (2r'·z_p)² I)) / M
 *      (one teacher changes, its projection moves ≤ 2r'); r ← r'.
 *   4. release argmax c.
 * Neighbouring: add/remove one unit of the pool = one teacher's vector changes; M is public.
 * All mechanisms are Gaussian on the same subsample, so the step is one Gaussian with
 * σ_eff = (Σₖ z_k⁻²)^(−1/2) over the MAXIMUM number of mechanisms (⌈log₂ G⌉ probes, 1 mean,
 * T̂ checks, T̂ projected means), whatever the step ran (ARCHITECTURE §4). Step event:
 * PoissonSampled(q, Gaussian(σ_eff, 1)). Each z_k is set from σ_eff and a precision share.
 */
import { gaussian, poissonSampled } from '../accounting/events';
import { ballCounts, goodRadiusScore, radiusGrid } from '../mechanisms/goodRadius';
import { centredProjectedSum } from '../mechanisms/projectedMean';
import type { RandomSource } from '../random/randomSource';
import { sampleGaussian } from '../random/samplers';
import { argmax, sumVectors } from './teacherEnsemble';
import type { TokenAggregator } from './tokenAggregator';

export interface AdaDpSynParams {
  /** σ_eff of the whole step, relative to sensitivity 1 (what calibration sets). */
  sigma: number;
  /** T̂: maximum radius-reduction rounds (charged in full). */
  rounds: number;
  /** GoodRadius target cluster size as a fraction of M (t = ⌈fraction·M⌉). */
  clusterFraction: number;
  /** A round proceeds only if the noisy count inside the new ball is ≥ coverage·M. */
  coverage: number;
  /** λ: each round shrinks the radius by this factor, never below r*. */
  shrink: number;
  /** Shares of the step's precision σ_eff⁻² given to each mechanism family (normalised). */
  shares: { radius: number; firstMean: number; coverage: number; projectedMean: number };
}

export const defaultAdaDpSynParams = (sigma: number): AdaDpSynParams => ({
  sigma,
  rounds: 2,
  clusterFraction: 0.6,
  coverage: 0.6,
  shrink: 0.5,
  shares: { radius: 0.1, firstMean: 0.35, coverage: 0.1, projectedMean: 0.45 },
});

/** Probability vectors lie in the simplex: any two are within √2. */
const R_MAX = Math.SQRT2;
const RADIUS_GRID = radiusGrid(R_MAX / 1024, R_MAX, 2);
export const RADIUS_PROBES = Math.ceil(Math.log2(RADIUS_GRID.length));

export interface NoiseMultipliers {
  radius: number;
  firstMean: number;
  coverage: number;
  projectedMean: number;
}

/**
 * Per-mechanism multipliers z_k with Σ count_k / z_k² = 1/σ_eff²: family k of n_k
 * mechanisms and share p_k gets z_k = σ_eff·√(n_k / p_k).
 */
export function noiseMultipliers(params: AdaDpSynParams): NoiseMultipliers {
  const counts = { radius: RADIUS_PROBES, firstMean: 1, coverage: params.rounds, projectedMean: params.rounds };
  const keys = Object.keys(counts) as (keyof NoiseMultipliers)[];
  const total = keys.reduce((s, k) => s + (counts[k] > 0 ? params.shares[k] : 0), 0);
  if (!(total > 0)) throw new Error('AdaDPSyn: precision shares must be positive');
  const z = {} as NoiseMultipliers;
  for (const k of keys) {
    z[k] = counts[k] > 0 ? params.sigma * Math.sqrt((counts[k] * total) / params.shares[k]) : Infinity;
  }
  return z;
}

/** σ_eff recomputed from the multipliers (Gaussian composition, precision adds). */
export function effectiveSigma(params: AdaDpSynParams): number {
  const z = noiseMultipliers(params);
  const precision =
    RADIUS_PROBES / z.radius ** 2 + 1 / z.firstMean ** 2 + params.rounds / z.coverage ** 2 + params.rounds / z.projectedMean ** 2;
  return 1 / Math.sqrt(precision);
}

const noisy = (value: number, std: number, random: RandomSource) => value + sampleGaussian(random, std);

/** Step 1: smallest grid radius whose noisy L passes, by ⌈log₂ G⌉ probes (the last always passes). */
function targetRadius(points: readonly Float64Array[], t: number, z: number, random: RandomSource): number {
  const counts = ballCounts(points, RADIUS_GRID);
  let lo = 0;
  let hi = RADIUS_GRID.length - 1;
  for (let probe = 0; probe < RADIUS_PROBES && lo < hi; probe++) {
    const mid = (lo + hi) >> 1;
    const score = goodRadiusScore(counts, points.length, RADIUS_GRID.length, mid, t);
    if (noisy(score, 2 * z, random) >= t - 1) hi = mid;
    else lo = mid + 1;
  }
  return RADIUS_GRID[hi];
}

function withinBall(points: readonly Float64Array[], centre: Float64Array, radius: number): number {
  let count = 0;
  for (const x of points) {
    let s = 0;
    for (let j = 0; j < x.length; j++) s += (x[j] - centre[j]) ** 2;
    if (Math.sqrt(s) <= radius) count++;
  }
  return count;
}

/** The released centre of one step (exposed for tests; `choose` returns its argmax). */
export function adaDpSynCentre(vectors: readonly Float64Array[], params: AdaDpSynParams, random: RandomSource): Float64Array {
  const m = vectors.length;
  const dim = vectors[0].length;
  const z = noiseMultipliers(params);
  const rStar = targetRadius(vectors, Math.max(1, Math.ceil(params.clusterFraction * m)), z.radius, random);
  const centre = sumVectors(vectors, dim);
  for (let j = 0; j < dim; j++) centre[j] = noisy(centre[j], Math.SQRT2 * z.firstMean, random) / m;
  let radius = R_MAX;
  for (let round = 0; round < params.rounds; round++) {
    const next = Math.max(rStar, params.shrink * radius);
    if (next >= radius) break;
    if (noisy(withinBall(vectors, centre, next), z.coverage, random) < params.coverage * m) break;
    const offset = centredProjectedSum(vectors, centre, next);
    for (let j = 0; j < dim; j++) centre[j] += noisy(offset[j], 2 * next * z.projectedMean, random) / m;
    radius = next;
  }
  return centre;
}

export function adaDpSynAggregator(params: AdaDpSynParams): TokenAggregator {
  if (!(params.sigma > 0) || !Number.isInteger(params.rounds) || params.rounds < 0) {
    throw new Error('AdaDPSyn: sigma must be > 0 and rounds a non-negative integer');
  }
  return {
    method: 'adadpsyn',
    choose: (vectors, random) => argmax(adaDpSynCentre(vectors, params, random)),
    stepEvent: (q) => poissonSampled(q, gaussian(params.sigma, 1)),
  };
}
