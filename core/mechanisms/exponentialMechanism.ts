/**
 * Exponential mechanism (McSherry & Talwar, FOCS 2007) sampled by Gumbel-max: adding i.i.d.
 * Gumbel(scale 2Δ/ε) noise to the utilities and taking the argmax returns candidate i with
 * probability exactly ∝ exp(ε·uᵢ / (2Δ)) (the Gumbel-max trick, Yellott 1977; used for the EM
 * by Durfee & Rogers, NeurIPS 2019). ε-DP (Dwork & Roth 2014, Thm 3.10); with `monotone`
 * utilities (all move in the same direction between neighbours) the factor 2 can be dropped,
 * exp(ε·uᵢ/Δ) is ε-DP (McSherry & Talwar 2007; see McKenna & Sheldon 2020, §2).
 *
 * Neighbouring: as stated by the caller (default add/remove one unit).
 * Sensitivity: Δ = max over candidates i and neighbours of |uᵢ(D) − uᵢ(D′)|.
 * Candidate set: MUST be data-independent (public prompt tokens, a public model's top-K,
 * public labels). Building it from private records breaks the guarantee (ARCHITECTURE §4).
 * Event: pure(ε).
 */
import type { Neighbouring } from '../accounting/events';
import { cryptoRandom } from '../random/cryptoRandom';
import type { RandomSource } from '../random/randomSource';
import { uniformOpen } from '../random/uniform';
import { requireFinite, requirePositive, type MechanismResult } from './types';

export interface ExponentialMechanismParams {
  epsilon: number;
  /** Sensitivity Δ of every candidate's utility under `neighbouring`. */
  sensitivity: number;
  /** Utilities move monotonically together between neighbours (then the factor 2 is dropped). */
  monotone?: boolean;
  neighbouring?: Neighbouring;
}

/** The exponent multiplier: ε/(2Δ), or ε/Δ for monotone utilities. */
function exponentialMechanismRate(params: ExponentialMechanismParams): number {
  requirePositive('epsilon', params.epsilon);
  requirePositive('sensitivity', params.sensitivity);
  return params.epsilon / ((params.monotone ? 1 : 2) * params.sensitivity);
}

export function exponentialMechanism(
  utilities: ArrayLike<number>,
  params: ExponentialMechanismParams,
  random: RandomSource = cryptoRandom,
): MechanismResult<number> {
  const rate = exponentialMechanismRate(params);
  requireFinite('utilities', utilities);
  if (utilities.length === 0) throw new Error('exponentialMechanism: no candidates');
  // argmax rate·uᵢ + Gᵢ with Gᵢ standard Gumbel, i.e. uᵢ + Gumbel(1/rate).
  let best = 0;
  let bestValue = -Infinity;
  for (let i = 0; i < utilities.length; i++) {
    const value = rate * utilities[i] - Math.log(-Math.log(uniformOpen(random)));
    if (value > bestValue) {
      bestValue = value;
      best = i;
    }
  }
  return { output: best, event: { kind: 'pure', epsilon: params.epsilon, neighbouring: params.neighbouring ?? 'add-remove' } };
}

/** The exact output distribution (for tests, explanations and the UI). */
export function exponentialMechanismProbabilities(utilities: ArrayLike<number>, params: ExponentialMechanismParams): Float64Array {
  const rate = exponentialMechanismRate(params);
  let max = -Infinity;
  for (let i = 0; i < utilities.length; i++) max = Math.max(max, rate * utilities[i]);
  const p = new Float64Array(utilities.length);
  let total = 0;
  for (let i = 0; i < utilities.length; i++) total += p[i] = Math.exp(rate * utilities[i] - max);
  for (let i = 0; i < p.length; i++) p[i] /= total;
  return p;
}
