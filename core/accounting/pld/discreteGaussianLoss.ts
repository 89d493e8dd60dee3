/**
 * Privacy-loss distribution of the discrete Gaussian mechanism on k ∈ {1, 2} integer
 * coordinates, each shifted by the same integer Δ (Canonne, Kamath & Steinke, NeurIPS 2020):
 * P = N_ℤ(0, σ²)^k, Q = N_ℤ(Δ, σ²)^k. This is exact — not the continuous Gaussian's curve,
 * which lies below it — and the pair is symmetric (x ↦ Δ − x swaps P and Q coordinatewise),
 * so Poisson subsampling (subsampling.ts) applies. A private vote is k = 2: one teacher's
 * vote moving from class a to class b lowers one count by 1 and raises another by 1; reflecting
 * one coordinate (N_ℤ is symmetric) makes that pair exactly (N_ℤ(0)², N_ℤ(1)²).
 *
 * The loss depends on the coordinates only through their sum S:
 *   L = (kΔ² − 2ΔS) / (2σ²),  S ~ p_S under P and p_S(· − kΔ) under Q,
 * with p_S(s) = e^{−s²/2σ²}/Z for k = 1, and for k = 2 (x² + (s−x)² = 2(x − s/2)² + s²/2)
 *   p_S(s) = e^{−s²/4σ²}·θ_{s mod 2}/Z²,  θ₀ = Σ_x e^{−x²/σ²},  θ₁ = Σ_x e^{−(x−½)²/σ²}.
 * The table keeps s within kΔ/2 ± (TAIL·σ√k + kΔ) (symmetric under the swap); the P-mass
 * outside it is moved to L = +∞ and the Q-mass to L = −∞ (pessimistic: the hockey-stick
 * divergence can only grow), at most 2e^{−TAIL²/2} ≈ 1e−37 (the discrete Gaussian is
 * σ²-sub-Gaussian, CKS Cor. 9).
 */
import type { LossDistribution } from './lossDistribution';

const TAIL = 13;
/** Largest table (points of S): beyond, the event is left to another accountant. */
export const MAX_DISCRETE_GAUSSIAN_TABLE = 2_000_000;

/** Σ_x e^{−(x−c)²/(2v)} over the integers (terms beyond 40 standard deviations are below 1e−340). */
function theta(v: number, c: number): number {
  const reach = Math.ceil(40 * Math.sqrt(v)) + 1;
  let sum = 0;
  for (let x = -reach; x <= reach; x++) sum += Math.exp(-((x - c) ** 2) / (2 * v));
  return sum;
}

/** The table size a (σ, Δ, k) loss needs (the caller refuses sizes above MAX_DISCRETE_GAUSSIAN_TABLE). */
export function discreteGaussianTableSize(sigma: number, delta: number, k: 1 | 2): number {
  return 2 * (Math.ceil(TAIL * sigma * Math.sqrt(k)) + k * delta) + k * delta + 2;
}

export function discreteGaussianLoss(sigma: number, delta: number, k: 1 | 2): LossDistribution {
  if (!(sigma > 0) || !Number.isFinite(sigma)) throw new RangeError(`discreteGaussianLoss: σ must be finite and > 0, got ${sigma}`);
  if (!Number.isInteger(delta) || delta < 1) throw new RangeError(`discreteGaussianLoss: Δ must be a positive integer, got ${delta}`);
  const shift = k * delta;
  const sigma2 = sigma * sigma;
  const pmf =
    k === 1
      ? ((z: number) => (s: number) => Math.exp(-(s * s) / (2 * sigma2)) / z)(theta(sigma2, 0))
      : ((z: number, even: number, odd: number) => (s: number) => (Math.exp(-(s * s) / (4 * sigma2)) * (Math.abs(s) % 2 === 0 ? even : odd)) / (z * z))(
          theta(sigma2, 0), theta(sigma2 / 2, 0), theta(sigma2 / 2, 0.5),
        );
  // Kept outcomes s ∈ [lo, hi], symmetric about shift/2; the table starts shift lower for Q.
  const half = Math.ceil(TAIL * sigma * Math.sqrt(k)) + shift;
  const lo = Math.floor(shift / 2) - half;
  const hi = shift - lo;
  const start = lo - shift;
  const cumulative = new Float64Array(hi - start + 2); // cumulative[i + 1] = Σ_{s = start}^{start + i} p_S(s)
  for (let i = 0; start + i <= hi; i++) cumulative[i + 1] = cumulative[i] + pmf(start + i);
  const below = (s: number) => cumulative[Math.max(0, s - start + 1)]; // Σ_{start ≤ u ≤ s}, s ≤ hi
  const kept = below(hi) - below(lo - 1);
  const loss = (s: number) => (shift * delta - 2 * delta * s) / (2 * sigma2);
  return {
    infinityMass: Math.max(0, 1 - kept),
    minLoss: loss(hi),
    maxLoss: loss(lo),
    atoms: [],
    at(epsilon) {
      // L(s) > ε ⇔ s < (kΔ² − 2σ²ε)/(2Δ): the largest such integer.
      const bound = (shift * delta - 2 * sigma2 * epsilon) / (2 * delta);
      const t = Math.min(hi, Math.ceil(bound) - 1);
      if (t < lo) return { survival: 0, survivalQ: 0, finiteDelta: 0 };
      const survival = below(t) - below(lo - 1);
      const survivalQ = below(t - shift);
      // e^ε·Q as e^{ε + log Q}: e^ε alone overflows above 709 nats (∞·0 = NaN, ∞·tiny = ∞).
      return { survival, survivalQ, finiteDelta: Math.max(0, survival - Math.exp(epsilon + Math.log(survivalQ))) };
    },
  };
}

/** Above this loss at the mode (nats), the grid cannot resolve the exact loss: see discreteGaussianApproxDp. */
export const NEARLY_NOISELESS_LOSS = 50;

/**
 * A nearly noiseless discrete Gaussian (σ small against Δ: losses of hundreds of nats, which the
 * FFT grid cannot carry) as the (ε₀, δ₀)-DP pair that dominates it (Kairouz, Oh & Viswanath 2015):
 * S is kσ²-sub-Gaussian (CKS Cor. 9), so P(S ≤ −t) ≤ δ₀ = e^{−t²/2kσ²}; every other outcome has
 * L ≤ ε₀ = L(1 − t), and by symmetry the same holds the other way. t makes δ₀ ≤ 1e−15.
 */
export function discreteGaussianApproxDp(sigma: number, delta: number, k: 1 | 2): { epsilon: number; delta: number } {
  const spread = sigma * Math.sqrt(k);
  const t = Math.max(1, Math.ceil(spread * Math.sqrt(2 * Math.log(1e15))));
  return { epsilon: (k * delta * delta - 2 * delta * (1 - t)) / (2 * sigma * sigma), delta: Math.exp(-(t * t) / (2 * spread * spread)) };
}
