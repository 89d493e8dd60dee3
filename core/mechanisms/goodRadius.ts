/**
 * GoodRadius: privately find a radius r such that some ball of radius ≈ r holds ≈ t points
 * (Nissim, Stemmer & Vadhan, "Locating a Small Cluster Privately", PODS 2016, §3; the
 * radius step of AdaDPSyn, Gao et al., ICLR 2025).
 *
 * Score (NSV16): with Bᵢ(r) = #{j : ‖xⱼ − xᵢ‖ ≤ r} (xᵢ itself included),
 *   L(r) = (1/t) · (sum of the t largest values of min(Bᵢ(r), t)),   0 ≤ L(r) ≤ t.
 * L is non-decreasing in r; L(r) = t once some ball of radius r/2 holds t points, and
 * L(r) ≥ t − Γ means many points have ≈ t neighbours within r.
 * Sensitivity: adding/removing one point moves each min(Bᵢ, t) by ≤ 1 (t terms: ≤ 1 after
 * dividing by t) and can swap one term in or out (≤ 1): Δ(L) = 2 (ARCHITECTURE §4).
 *
 * Search: AboveThreshold (sparse vector; Dwork & Roth 2014, Alg. 1 and Thm 3.23; Lyu, Su &
 * Li, VLDB 2017) over a DATA-INDEPENDENT geometric grid r₀ = rMin, r_{j+1} = ratio·r_j up to
 * rMax: noisy threshold T + Lap(2Δ/ε), report the first j with L(r_j) + Lap(4Δ/ε) ≥ the noisy
 * threshold. ε-DP for any grid length; only the index is released (⊥ if none).
 * Neighbouring: add/remove one point. Event: pure(ε).
 */
import type { Neighbouring } from '../accounting/events';
import { cryptoRandom } from '../random/cryptoRandom';
import type { RandomSource } from '../random/randomSource';
import { sampleLaplace } from '../random/samplers';
import { requireFinite, requirePositive, type MechanismResult } from './types';

/** Sensitivity of NSV16's L(r) under add/remove of one point. */
const GOOD_RADIUS_SENSITIVITY = 2;

export interface GoodRadiusParams {
  /** Target cluster size t (public). */
  t: number;
  epsilon: number;
  /** Public bounds of the grid (e.g. from the embedding norm: unit vectors lie within 2). */
  rMin: number;
  rMax: number;
  /** Grid ratio > 1 (default 2). */
  ratio?: number;
  /** Threshold on L (default t). Lower it by the noise margin for a higher pass rate. */
  threshold?: number;
  neighbouring?: Neighbouring;
}

export interface GoodRadiusOutput {
  /** The chosen radius, or null (⊥) when no grid radius passed. */
  radius: number | null;
  /** Its index in the grid, or null. */
  index: number | null;
  grid: number[];
}

/** The data-independent geometric grid rMin·ratio^j ≤ rMax (rMax included as the last entry). */
export function radiusGrid(rMin: number, rMax: number, ratio = 2): number[] {
  requirePositive('rMin', rMin);
  requirePositive('rMax', rMax);
  if (!(ratio > 1) || !Number.isFinite(ratio)) throw new Error('radiusGrid: ratio must be > 1');
  if (rMax < rMin) throw new Error('radiusGrid: rMax < rMin');
  const grid: number[] = [];
  for (let r = rMin; r < rMax * (1 - 1e-12); r *= ratio) grid.push(r);
  grid.push(rMax);
  return grid;
}

/** Bᵢ(r_j) for every point i and grid radius j: row-major n × grid.length. */
export function ballCounts(points: readonly ArrayLike<number>[], grid: readonly number[]): Int32Array {
  const n = points.length;
  const J = grid.length;
  const counts = new Int32Array(n * J);
  const distances = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const xi = points[i];
    for (let j = 0; j < n; j++) {
      const xj = points[j];
      let s = 0;
      for (let q = 0; q < xi.length; q++) {
        const diff = xi[q] - xj[q];
        s += diff * diff;
      }
      distances[j] = Math.sqrt(s);
    }
    distances.sort();
    let p = 0;
    for (let g = 0; g < J; g++) {
      while (p < n && distances[p] <= grid[g]) p++;
      counts[i * J + g] = p;
    }
  }
  return counts;
}

/** L(r_g) from precomputed ball counts (NSV16 score). */
export function goodRadiusScore(counts: Int32Array, n: number, gridLength: number, g: number, t: number): number {
  // Counting sort of min(Bᵢ, t) ∈ [0, t], then the t largest.
  const histogram = new Int32Array(t + 1);
  for (let i = 0; i < n; i++) histogram[Math.min(counts[i * gridLength + g], t)]++;
  let remaining = t;
  let sum = 0;
  for (let v = t; v >= 0 && remaining > 0; v--) {
    const take = Math.min(histogram[v], remaining);
    sum += take * v;
    remaining -= take;
  }
  return sum / t;
}

export function goodRadius(
  points: readonly ArrayLike<number>[],
  params: GoodRadiusParams,
  random: RandomSource = cryptoRandom,
): MechanismResult<GoodRadiusOutput> {
  requirePositive('epsilon', params.epsilon);
  if (!Number.isInteger(params.t) || params.t < 1) throw new Error('goodRadius: t must be a positive integer');
  const grid = radiusGrid(params.rMin, params.rMax, params.ratio ?? 2);
  const dim = points[0]?.length ?? 0;
  for (const x of points) {
    if (x.length !== dim) throw new Error('goodRadius: points of different dimensions');
    requireFinite('point', x);
  }
  const threshold = params.threshold ?? params.t;
  if (!Number.isFinite(threshold)) throw new Error('goodRadius: threshold must be finite');
  const counts = ballCounts(points, grid);
  const delta = GOOD_RADIUS_SENSITIVITY;
  const noisyThreshold = threshold + sampleLaplace(random, (2 * delta) / params.epsilon);
  let index: number | null = null;
  for (let g = 0; g < grid.length; g++) {
    const score = goodRadiusScore(counts, points.length, grid.length, g, params.t);
    if (score + sampleLaplace(random, (4 * delta) / params.epsilon) >= noisyThreshold) {
      index = g;
      break;
    }
  }
  return {
    output: { radius: index === null ? null : grid[index], index, grid },
    event: { kind: 'pure', epsilon: params.epsilon, neighbouring: params.neighbouring ?? 'add-remove' },
  };
}
