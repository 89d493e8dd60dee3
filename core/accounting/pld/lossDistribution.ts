/**
 * Privacy-loss distributions of dominating pairs (P, Q), L = log(dP/dQ) under P, given in
 * closed form through the three quantities the discretisation needs (Koskela et al. 2020,
 * "Computing tight differential privacy guarantees using FFT"; Doroshenko et al. 2022,
 * "Connect the dots"): the survival functions of L under P and Q and the finite part of the
 * hockey-stick divergence δ(ε) = E_P[(1 − e^{ε−L})₊] + P(L = ∞) (Meiser–Mohammadi 2018).
 */
import { erfcx, normalCdf } from '../../math/normal';

export interface LossPoint {
  /** P(ε < L < ∞). */
  survival: number;
  /** Q(ε < L < ∞). */
  survivalQ: number;
  /** E_P[(1 − e^{ε−L})₊; L < ∞] = δ(ε) − P(L = ∞), computed without cancellation. */
  finiteDelta: number;
}

export interface LossDistribution {
  /** P(L = +∞): the pair's "δ part". */
  readonly infinityMass: number;
  /** Smallest / largest loss carrying P-mass (±Infinity when unbounded). */
  readonly minLoss: number;
  readonly maxLoss: number;
  /** Losses of point masses (a grid through them discretises them exactly). */
  readonly atoms: readonly number[];
  at(epsilon: number): LossPoint;
}

/**
 * Gaussian mechanism, μ = Δ/σ: L ~ N(μ²/2, μ²) under P and N(−μ²/2, μ²) under Q. With
 * x₁ = ε/μ − μ/2 and x₂ = ε/μ + μ/2, e^ε·Q(L > ε) = ½e^{−x₁²/2}·erfcx(x₂/√2), so the tails
 * and δ(ε) never overflow and δ is a difference of two erfcx values (no tail cancellation).
 */
export function gaussianLoss(mu: number): LossDistribution {
  if (!(mu > 0) || !Number.isFinite(mu)) throw new RangeError(`gaussianLoss: μ must be finite and > 0, got ${mu}`);
  return {
    infinityMass: 0,
    minLoss: -Infinity,
    maxLoss: Infinity,
    atoms: [],
    at(epsilon) {
      const x1 = epsilon / mu - mu / 2;
      const x2 = epsilon / mu + mu / 2;
      const halfKernel = 0.5 * Math.exp(-0.5 * x1 * x1);
      const survival = x1 > 0 ? halfKernel * erfcx(x1 * Math.SQRT1_2) : normalCdf(-x1);
      let survivalQ: number;
      let scaledQ: number; // e^ε·Q(L > ε)
      if (x2 > 0 && epsilon > -700) {
        scaledQ = halfKernel * erfcx(x2 * Math.SQRT1_2);
        survivalQ = scaledQ * Math.exp(-epsilon);
      } else {
        survivalQ = normalCdf(-x2);
        scaledQ = Math.exp(epsilon) * survivalQ;
      }
      return { survival, survivalQ, finiteDelta: Math.max(0, survival - scaledQ) };
    },
  };
}

/**
 * Laplace mechanism, ε₀ = Δ/b: L ∈ [−ε₀, ε₀] with atoms P(L = ε₀) = ½, P(L = −ε₀) = ½e^{−ε₀};
 * δ(ε) = 1 − e^{(ε−ε₀)/2} on [−ε₀, ε₀].
 */
export function laplaceLoss(epsilon0: number): LossDistribution {
  if (!(epsilon0 > 0) || !Number.isFinite(epsilon0)) throw new RangeError(`laplaceLoss: ε₀ must be finite and > 0, got ${epsilon0}`);
  return {
    infinityMass: 0,
    minLoss: -epsilon0,
    maxLoss: epsilon0,
    atoms: [-epsilon0, epsilon0],
    at(epsilon) {
      if (epsilon >= epsilon0) return { survival: 0, survivalQ: 0, finiteDelta: 0 };
      if (epsilon < -epsilon0) return { survival: 1, survivalQ: 1, finiteDelta: -Math.expm1(epsilon) };
      return {
        survival: 1 - 0.5 * Math.exp((epsilon - epsilon0) / 2),
        survivalQ: 0.5 * Math.exp(-(epsilon + epsilon0) / 2),
        finiteDelta: -Math.expm1((epsilon - epsilon0) / 2),
      };
    },
  };
}

/**
 * (ε₀, δ₀)-DP, exactly: the dominating pair of Kairouz–Oh–Viswanath 2015 (randomised response
 * with a δ₀ atom). P = {∞: δ₀, ε₀: (1−δ₀)e^{ε₀}/(1+e^{ε₀}), −ε₀: (1−δ₀)/(1+e^{ε₀})}, Q mirrored.
 * Pure ε-DP is δ₀ = 0.
 */
export function randomizedResponseLoss(epsilon0: number, delta0: number): LossDistribution {
  if (!(epsilon0 >= 0) || !Number.isFinite(epsilon0)) throw new RangeError(`randomizedResponseLoss: ε₀ must be finite and ≥ 0, got ${epsilon0}`);
  if (!(delta0 >= 0 && delta0 <= 1)) throw new RangeError(`randomizedResponseLoss: δ₀ must be in [0, 1], got ${delta0}`);
  const high = (1 - delta0) / (1 + Math.exp(-epsilon0));
  const low = (1 - delta0) / (1 + Math.exp(epsilon0));
  return {
    infinityMass: delta0,
    minLoss: -epsilon0,
    maxLoss: epsilon0,
    atoms: [-epsilon0, epsilon0],
    at(epsilon) {
      const above = epsilon < epsilon0;
      const both = epsilon < -epsilon0;
      return {
        survival: (above ? high : 0) + (both ? low : 0),
        survivalQ: (above ? low : 0) + (both ? high : 0),
        finiteDelta: (above ? -high * Math.expm1(epsilon - epsilon0) : 0) + (both ? -low * Math.expm1(epsilon + epsilon0) : 0),
      };
    },
  };
}

/**
 * ε-DP mechanisms (ε₁, …, εₙ) and Gaussians of total precision μ² run on the same data, as ONE
 * mechanism — what a Poisson sampler wrapping them needs (a clustering's exponential-mechanism
 * splits then its Gaussian counts and sums). Its dominating pair is the product of the parts'
 * pairs (Zhu, Dong & Wang 2022, composition of dominating pairs): randomised-response pairs
 * (randomizedResponseLoss) and the Gaussian's. The discrete part's loss S = Σ ±εᵢ has P-mass p_s
 * and Q-mass p_s·e^{−s}; L = S + G with G the Gaussian's loss, so every quantity is a p_s-weighted
 * sum of the Gaussian's at ε − s. Products of symmetric pairs are symmetric, as Poisson
 * subsampling (subsampling.ts) requires. μ = 0: the discrete part alone.
 */
export function pureAndGaussianLoss(epsilons: readonly number[], mu: number): LossDistribution {
  if (!(mu >= 0) || !Number.isFinite(mu)) throw new RangeError(`pureAndGaussianLoss: μ must be finite and ≥ 0, got ${mu}`);
  let masses = new Map<number, number>([[0, 1]]);
  for (const e of epsilons) {
    if (!(e >= 0) || !Number.isFinite(e)) throw new RangeError(`pureAndGaussianLoss: ε must be finite and ≥ 0, got ${e}`);
    const high = 1 / (1 + Math.exp(-e));
    const next = new Map<number, number>();
    for (const [s, p] of masses) {
      next.set(s + e, (next.get(s + e) ?? 0) + p * high);
      next.set(s - e, (next.get(s - e) ?? 0) + p * (1 - high));
    }
    masses = next;
  }
  const parts = [...masses].sort((a, b) => a[0] - b[0]);
  // The continuous part's quantities at ε − s: the Gaussian's, or a point mass at 0 when μ = 0.
  const continuous: (epsilon: number) => LossPoint =
    mu > 0 ? gaussianLoss(mu).at : (e) => (e < 0 ? { survival: 1, survivalQ: 1, finiteDelta: -Math.expm1(e) } : { survival: 0, survivalQ: 0, finiteDelta: 0 });
  return {
    infinityMass: 0,
    minLoss: mu > 0 ? -Infinity : parts[0][0],
    maxLoss: mu > 0 ? Infinity : parts[parts.length - 1][0],
    atoms: mu > 0 ? [] : parts.map(([loss]) => loss),
    at(epsilon) {
      const point: LossPoint = { survival: 0, survivalQ: 0, finiteDelta: 0 };
      for (const [loss, mass] of parts) {
        const c = continuous(epsilon - loss);
        point.survival += mass * c.survival;
        point.survivalQ += mass * Math.exp(-loss) * c.survivalQ;
        point.finiteDelta += mass * c.finiteDelta;
      }
      return point;
    },
  };
}
