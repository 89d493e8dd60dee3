/**
 * Top-k with a privately chosen k, released by propose-test-release (Zhu & Wang, "Adaptive
 * Private-K-Selection with Adaptive K and Application to Multi-label PATE", AISTATS 2022).
 *
 * 1. Choose k: with sorted counts c₍₁₎ ≥ … ≥ c₍d₎, the gaps gₖ = c₍ₖ₎ − c₍ₖ₊₁₎ for
 *    k = 1..kMax go through report-noisy-max (Gumbel noise ≡ exponential mechanism, scale
 *    2Δ/ε₁, ε₁-DP; optional data-independent prior added to the scores). Zhu & Wang use
 *    Gaussian noise under RDP; Gumbel needs only the ℓ∞ bound on the gaps, which holds
 *    for any number of counts a unit touches.
 * 2. Test EXACTLY the boundary that is released: the top-k̂ set is stable as long as its gap
 *    g_k̂ stays positive. Each unit moves every pairwise count difference by ≤ Δ, so
 *    dist = max(0, g_k̂/Δ − 1) has sensitivity 1 and is 0 whenever some neighbour's top-k̂
 *    set differs. Release the set iff dist + Lap(1/ε₂) > ln(1/(2δ))/ε₂; else ⊥
 *    (Dwork & Lei 2009; Dwork & Roth 2014, Ch. 7; Thakurta & Smith 2013). (ε₂, δ)-DP: an
 *    unstable input passes with probability ½·e^{−ln(1/(2δ))} = δ.
 *
 * Neighbouring: add/remove one unit, changing each count by at most Δ (default 1), all in
 * the same direction. (Under replace-one, pass Δ doubled.) The item universe may be
 * data-dependent: counts are non-negative and padded with zeros to kMax + 1 items (an item
 * absent from the data counts 0), so the range of k never depends on how many items the
 * data holds — clamping kMax to d − 1 would give k = d probability 0 on one neighbour and
 * more on the other. Padding items are never released.
 * Event: sequence([pure(ε₁), approx(ε₂, δ)]) — charged on every call, ⊥ or not; δ adds up
 * across calls (one test per call), never charged once for many tests.
 * The set is released unordered (sorted by item index): the order inside it is not tested.
 */
import type { Neighbouring, PrivacyEvent } from '../accounting/events';
import { cryptoRandom } from '../random/cryptoRandom';
import type { RandomSource } from '../random/randomSource';
import { sampleLaplace } from '../random/samplers';
import { uniformOpen } from '../random/uniform';
import { requireFinite, requirePositive, requireProbability, sortIndicesDescending, type MechanismResult } from './types';

export interface PtrTopKParams {
  /** Largest k that may be chosen (public; never clamped to the number of items). */
  maxK: number;
  /** Budget of the noisy choice of k. */
  epsilonSelect: number;
  /** Budget of the stability test. */
  epsilonTest: number;
  /** Failure probability of the test (charged on every call). */
  delta: number;
  /** Max change of any count per unit; default 1. */
  sensitivity?: number;
  /** Optional data-independent bonus per k (index k−1), e.g. to prefer larger k. */
  prior?: ArrayLike<number>;
  neighbouring?: Neighbouring;
}

export interface PtrTopKOutput {
  /** The privately chosen k (released in both outcomes). */
  k: number;
  /** The top-k item indices sorted ascending, or null (⊥) when the test failed. */
  items: number[] | null;
}

export function ptrTopKEvent(params: Pick<PtrTopKParams, 'epsilonSelect' | 'epsilonTest' | 'delta' | 'neighbouring'>): PrivacyEvent {
  const neighbouring = params.neighbouring ?? 'add-remove';
  return {
    kind: 'sequence',
    events: [
      { kind: 'pure', epsilon: params.epsilonSelect, neighbouring },
      { kind: 'approx', epsilon: params.epsilonTest, delta: params.delta, neighbouring },
    ],
    neighbouring,
  };
}

/** The PTR threshold ln(1/(2δ))/ε₂: an unstable input (dist 0) passes with probability δ. */
export function ptrThreshold(epsilonTest: number, delta: number): number {
  return Math.log(1 / (2 * delta)) / epsilonTest;
}

export function ptrTopK(
  counts: ArrayLike<number>,
  params: PtrTopKParams,
  random: RandomSource = cryptoRandom,
): MechanismResult<PtrTopKOutput> {
  requirePositive('epsilonSelect', params.epsilonSelect);
  requirePositive('epsilonTest', params.epsilonTest);
  requireProbability('delta', params.delta, { open: true });
  if (params.delta >= 0.5) throw new Error('delta must be < 1/2');
  const sensitivity = params.sensitivity ?? 1;
  requirePositive('sensitivity', sensitivity);
  requireFinite('counts', counts);
  if (Array.prototype.some.call(counts, (c: number) => c < 0)) throw new Error('ptrTopK: counts must be non-negative');
  if (!Number.isInteger(params.maxK) || params.maxK < 1) throw new Error('ptrTopK: maxK must be a positive integer');
  const maxK = params.maxK;
  if (params.prior) {
    if (params.prior.length < maxK) throw new Error('ptrTopK: prior must have one entry per k ≤ maxK');
    requireFinite('prior', params.prior);
  }

  const d = counts.length;
  const padded = Float64Array.from({ length: Math.max(d, maxK + 1) }, (_, i) => (i < d ? counts[i] : 0));
  const order = sortIndicesDescending(padded);
  const gap = (k: number): number => padded[order[k - 1]] - padded[order[k]];

  // 1. Noisy max over the gaps (Gumbel scale 2Δ/ε₁: the exponential mechanism on gaps).
  const scale = (2 * sensitivity) / params.epsilonSelect;
  let k = 1;
  let best = -Infinity;
  for (let kk = 1; kk <= maxK; kk++) {
    const score = gap(kk) + (params.prior ? params.prior[kk - 1] : 0) - scale * Math.log(-Math.log(uniformOpen(random)));
    if (score > best) {
      best = score;
      k = kk;
    }
  }

  // 2. Propose-test-release on exactly the boundary released: the gap at k.
  const distance = Math.max(0, gap(k) / sensitivity - 1);
  const passed = distance + sampleLaplace(random, 1 / params.epsilonTest) > ptrThreshold(params.epsilonTest, params.delta);
  const items = passed ? Array.from(order.subarray(0, k)).filter((i) => i < d).sort((a, b) => a - b) : null;
  return { output: { k, items }, event: ptrTopKEvent(params) };
}
