/**
 * Laplace mechanism: release f(D) + Lap(b)^d (Dwork, McSherry, Nissim & Smith 2006;
 * Dwork & Roth 2014, Thm 3.6): ε = Δ₁/b pure DP.
 *
 * Neighbouring: as stated by the caller (default add/remove one unit).
 * Sensitivity: Δ₁ = max ‖f(D) − f(D′)‖₁ over neighbours under that relation.
 * Event: laplace(b, Δ₁). Floating-point caveat: see `random/samplers.ts`; for integer
 * counts prefer `discreteLaplaceMechanism`.
 */
import type { Neighbouring } from '../accounting/events';
import { cryptoRandom } from '../random/cryptoRandom';
import type { RandomSource } from '../random/randomSource';
import { sampleLaplace } from '../random/samplers';
import { requireFinite, requirePositive, type MechanismResult } from './types';

export interface LaplaceMechanismParams {
  /** Laplace scale b on each coordinate. */
  scale: number;
  /** ℓ1 sensitivity of the released vector under `neighbouring`. */
  l1Sensitivity: number;
  neighbouring?: Neighbouring;
}

export function laplaceMechanism(
  values: ArrayLike<number>,
  params: LaplaceMechanismParams,
  random: RandomSource = cryptoRandom,
): MechanismResult<Float64Array> {
  requirePositive('scale', params.scale);
  requirePositive('l1Sensitivity', params.l1Sensitivity);
  requireFinite('values', values);
  const output = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) output[i] = values[i] + sampleLaplace(random, params.scale);
  return {
    output,
    event: { kind: 'laplace', scale: params.scale, sensitivity: params.l1Sensitivity, neighbouring: params.neighbouring ?? 'add-remove' },
  };
}

/** Scale b giving ε-DP for ℓ1 sensitivity Δ₁: b = Δ₁/ε. */
export function laplaceScaleFor(epsilon: number, l1Sensitivity: number): number {
  requirePositive('epsilon', epsilon);
  requirePositive('l1Sensitivity', l1Sensitivity);
  return l1Sensitivity / epsilon;
}
