/**
 * Discrete Laplace (two-sided geometric) mechanism for integer-valued queries: release
 * f(D) + Y with Yᵢ i.i.d., P[Yᵢ = y] ∝ e^{−|y|/t}, sampled exactly (Canonne, Kamath &
 * Steinke 2020, Alg. 2; Ghosh, Roughgarden & Sundararajan 2009). ε = Δ₁/t pure DP.
 *
 * Neighbouring: as stated by the caller (default add/remove one unit).
 * Sensitivity: Δ₁ = max ‖f(D) − f(D′)‖₁ over neighbours, with f integer-valued.
 * Event: pure(Δ₁/t) — NOT laplace(t, Δ₁): with Δ₁ = 1 the discrete Laplace's privacy loss is
 * ±ε on every output (randomised response, the worst pure-DP curve), strictly worse than
 * the continuous Laplace curve a `laplace` event would be accounted with.
 */
import type { Neighbouring } from '../accounting/events';
import { cryptoRandom } from '../random/cryptoRandom';
import { sampleDiscreteLaplaceBig } from '../random/discrete';
import type { RandomSource } from '../random/randomSource';
import { toRational } from '../random/rational';
import { requirePositive, type MechanismResult } from './types';

export interface DiscreteLaplaceMechanismParams {
  /** Scale t of the discrete Laplace. */
  scale: number;
  /** ℓ1 sensitivity of the integer vector under `neighbouring`. */
  l1Sensitivity: number;
  neighbouring?: Neighbouring;
}

export function discreteLaplaceMechanism(
  counts: ArrayLike<number>,
  params: DiscreteLaplaceMechanismParams,
  random: RandomSource = cryptoRandom,
): MechanismResult<number[]> {
  requirePositive('scale', params.scale);
  requirePositive('l1Sensitivity', params.l1Sensitivity);
  const scale = toRational(params.scale);
  const output: number[] = new Array(counts.length);
  for (let i = 0; i < counts.length; i++) {
    if (!Number.isSafeInteger(counts[i])) throw new Error(`counts[${i}] must be a safe integer, got ${counts[i]}`);
    output[i] = Number(BigInt(counts[i]) + sampleDiscreteLaplaceBig(random, scale));
  }
  return {
    output,
    event: { kind: 'pure', epsilon: params.l1Sensitivity / params.scale, neighbouring: params.neighbouring ?? 'add-remove' },
  };
}
