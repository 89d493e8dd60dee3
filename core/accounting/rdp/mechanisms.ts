/**
 * RDP curves ε(α) of the unsampled mechanisms, at one order α > 1.
 * Each is a valid bound for the neighbouring relation its sensitivity / ε is stated under.
 */
import { logAddExp } from '../../math/logSpace';

/** Gaussian mechanism N(0, σ²) with ℓ2 sensitivity Δ: αΔ²/(2σ²) (Mironov 2017, Table 2). */
export function gaussianRdp(alpha: number, sigma: number, sensitivity: number): number {
  const ratio = sensitivity / sigma;
  return (alpha * ratio * ratio) / 2;
}

/**
 * Laplace mechanism Lap(b) with ℓ1 sensitivity Δ, λ = b/Δ (Mironov 2017, Table 2):
 *   ε(α) = 1/(α−1) · log( α/(2α−1)·e^{(α−1)/λ} + (α−1)/(2α−1)·e^{−α/λ} ).
 */
export function laplaceRdp(alpha: number, scale: number, sensitivity: number): number {
  const inv = sensitivity / scale;
  const log2am1 = Math.log(2 * alpha - 1);
  const moment = logAddExp(Math.log(alpha) - log2am1 + (alpha - 1) * inv, Math.log(alpha - 1) - log2am1 - alpha * inv);
  return Math.max(0, moment / (alpha - 1));
}

/**
 * Any ε-DP mechanism (Bun & Steinke 2016, Prop. 3.3 and its proof):
 *   ε(α) ≤ min( αε²/2, 1/(α−1)·log((sinh(αε) − sinh((α−1)ε))/sinh ε) ).
 * The second term equals the RDP of binary randomised response,
 * 1/(α−1)·log((e^{αε} + e^{(1−α)ε})/(e^ε + 1)), which is what we evaluate: with t = (α−1)ε,
 *   ratio − 1 = (expm1(ε)·expm1(t) + 4·sinh²(t/2)) / (e^ε + 1),
 * a sum of non-negative terms (no cancellation for small ε); log-sum-exp for large αε.
 */
export function pureDpRdp(alpha: number, epsilon: number): number {
  if (epsilon === 0) return 0;
  const t = (alpha - 1) * epsilon;
  let logRatio: number;
  if (alpha * epsilon < 30) {
    const sinhHalf = Math.sinh(t / 2);
    logRatio = Math.log1p((Math.expm1(epsilon) * Math.expm1(t) + 4 * sinhHalf * sinhHalf) / (Math.exp(epsilon) + 1));
  } else {
    logRatio = logAddExp(alpha * epsilon, -t) - logAddExp(epsilon, 0);
  }
  return Math.min((alpha * epsilon * epsilon) / 2, logRatio / (alpha - 1));
}
