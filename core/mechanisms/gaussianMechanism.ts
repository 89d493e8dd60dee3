/**
 * Gaussian mechanism: release f(D) + N(0, σ² I).
 *
 * Neighbouring: as stated by the caller (default add/remove one unit).
 * Sensitivity: Δ₂ = max ‖f(D) − f(D′)‖₂ over neighbours under that relation.
 * Event: gaussian(σ, Δ₂) — the accountants use its exact privacy curve (Balle & Wang,
 * ICML 2018, Thm 8) or its RDP α·Δ₂²/(2σ²) (Mironov, CSF 2017). Several Gaussian
 * releases on the same data compose into σ_eff = (Σ (σᵢ/Δᵢ)⁻²)^(−1/2) (ARCHITECTURE §4).
 */
import type { Neighbouring } from '../accounting/events';
import { cryptoRandom } from '../random/cryptoRandom';
import type { RandomSource } from '../random/randomSource';
import { sampleStandardNormal } from '../random/samplers';
import { requireFinite, requirePositive, type MechanismResult } from './types';

export interface GaussianMechanismParams {
  /** Standard deviation of the noise on each coordinate (absolute, not a multiplier). */
  sigma: number;
  /** ℓ2 sensitivity of the released vector under `neighbouring`. */
  l2Sensitivity: number;
  neighbouring?: Neighbouring;
}

export function gaussianMechanism(
  values: ArrayLike<number>,
  params: GaussianMechanismParams,
  random: RandomSource = cryptoRandom,
): MechanismResult<Float64Array> {
  requirePositive('sigma', params.sigma);
  requirePositive('l2Sensitivity', params.l2Sensitivity);
  requireFinite('values', values);
  const output = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) output[i] = values[i] + params.sigma * sampleStandardNormal(random);
  return {
    output,
    event: {
      kind: 'gaussian',
      sigma: params.sigma,
      sensitivity: params.l2Sensitivity,
      neighbouring: params.neighbouring ?? 'add-remove',
    },
  };
}
