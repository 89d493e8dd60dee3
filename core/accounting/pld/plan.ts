/**
 * From a privacy event to the mechanisms the PLD accountant composes: each distinct
 * mechanism once, with its repetition count, in both neighbouring directions.
 *
 * - Plain Gaussian mechanisms compose exactly (μ² = Σ (Δᵢ/σᵢ)² adds, ARCHITECTURE §4) and
 *   are kept as one number; sensitivities are taken under the event's own relation, so
 *   replace-one Gaussian/Laplace/ε-DP events need nothing special (their pairs are symmetric).
 * - Poisson(q, e) takes one mechanism e (Gaussian, or Gaussians run on the same sample,
 *   σ_eff = (Σ σᵢ⁻²)^{−1/2}; Laplace; ε-DP; (ε, δ)-DP; ε-DP mechanisms and Gaussians run on the
 *   same sample, as one product pair: pureAndGaussianLoss) under add/remove neighbouring; nested
 *   Poisson samplers multiply their rates. The discrete Gaussian with an integer shift per
 *   coordinate has its exact PLD (discreteGaussianLoss.ts), alone or on 2 coordinates of
 *   the same sample (a vote moving class). Other inner compositions, sampling without
 *   replacement and other discrete Gaussians throw UnsupportedByPldError (the facade then uses
 *   the RDP accountant); so does Poisson sampling under replace-one, which neither
 *   accountant takes (RDP refuses it too: the event is refused, never under-charged).
 */
import { approxDp, type PrivacyEvent } from '../events';
import { discreteGaussianApproxDp, discreteGaussianLoss, discreteGaussianTableSize, MAX_DISCRETE_GAUSSIAN_TABLE, NEARLY_NOISELESS_LOSS } from './discreteGaussianLoss';
import { gaussianLoss, laplaceLoss, pureAndGaussianLoss, randomizedResponseLoss, type LossDistribution } from './lossDistribution';
import { subsampledAdd, subsampledRemove } from './subsampling';

export class UnsupportedByPldError extends Error {
  constructor(
    readonly event: PrivacyEvent,
    reason: string,
  ) {
    super(`PLD accountant cannot take a '${event.kind}' event: ${reason}`);
    this.name = 'UnsupportedByPldError';
  }
}

export interface PlanPart {
  count: number;
  remove: LossDistribution;
  /** The add direction, or null when the pair is symmetric (add = remove). */
  add: LossDistribution | null;
}

export interface Plan {
  /** Σ (Δ/σ)² of the plain (not subsampled) Gaussian mechanisms. */
  gaussianPrecision: number;
  parts: PlanPart[];
}

interface Base {
  key: string;
  loss: () => LossDistribution;
}

export function planEvent(event: PrivacyEvent): Plan {
  const parts = new Map<string, PlanPart>();
  const plan: Plan = { gaussianPrecision: 0, parts: [] };
  const addPart = (key: string, count: number, make: () => Omit<PlanPart, 'count'>): void => {
    const existing = parts.get(key);
    if (existing) existing.count += count;
    else parts.set(key, { ...make(), count });
  };
  const visit = (e: PrivacyEvent, count: number): void => {
    if (e.neighbouring !== event.neighbouring) {
      throw new UnsupportedByPldError(e, `it is stated under '${e.neighbouring}' inside a '${event.neighbouring}' event`);
    }
    if (count === 0) return;
    switch (e.kind) {
      case 'gaussian':
        plan.gaussianPrecision += count * (e.sensitivity / e.sigma) ** 2;
        return;
      case 'laplace':
      case 'pure':
      case 'approx': {
        const base = baseOf(e);
        addPart(base.key, count, () => ({ remove: base.loss(), add: null }));
        return;
      }
      case 'poisson-sampled':
        return visitPoisson(e, count);
      case 'sampled-without-replacement':
        throw new UnsupportedByPldError(e, 'sampling without replacement has no PLD dominating pair here (use the RDP accountant)');
      case 'discrete-gaussian': {
        // Its exact δ(ε) differs from the continuous Gaussian's (Canonne, Kamath & Steinke 2020): its own exact PLD.
        const base = discreteGaussianBase(e, 1);
        addPart(base.key, count, () => ({ remove: base.loss(), add: null }));
        return;
      }
      case 'composed':
        return visit(e.event, count * e.count);
      case 'sequence':
        for (const child of e.events) visit(child, count);
    }
  };
  const visitPoisson = (e: Extract<PrivacyEvent, { kind: 'poisson-sampled' }>, count: number): void => {
    if (e.neighbouring !== 'add-remove') {
      throw new UnsupportedByPldError(e, 'Poisson subsampling is analysed under add/remove neighbouring only');
    }
    let q = e.q;
    let inner = e.event;
    while (inner.kind === 'poisson-sampled' && inner.neighbouring === 'add-remove') {
      q *= inner.q;
      inner = inner.event;
    }
    // A nearly noiseless discrete Gaussian: charged without the amplification (sound: sampling only helps),
    // as the grid cannot carry the subsampled loss of hundreds of nats.
    if (q === 1 || nearlyNoiselessDiscreteGaussian(inner)) return visit(inner, count);
    if (inner.neighbouring !== 'add-remove') throw new UnsupportedByPldError(e, `its inner event is stated under '${inner.neighbouring}'`);
    const base = poissonBase(inner);
    if (base === null) return;
    if (base === undefined) {
      throw new UnsupportedByPldError(e, 'the sampled step must be one Gaussian, Laplace, ε-DP or (ε, δ)-DP mechanism, or ε-DP mechanisms and Gaussians on the same sample');
    }
    addPart(`poisson:${q}:${base.key}`, count, () => ({ remove: subsampledRemove(q, base.loss()), add: subsampledAdd(q, base.loss()) }));
  };
  visit(event, 1);
  plan.parts = [...parts.values()];
  return plan;
}

function baseOf(e: Extract<PrivacyEvent, { kind: 'laplace' | 'pure' | 'approx' }>): Base {
  switch (e.kind) {
    case 'laplace': {
      const epsilon0 = e.sensitivity / e.scale;
      return { key: `laplace:${epsilon0}`, loss: () => laplaceLoss(epsilon0) };
    }
    case 'pure':
      return { key: `rr:${e.epsilon}:0`, loss: () => randomizedResponseLoss(e.epsilon, 0) };
    case 'approx':
      return { key: `rr:${e.epsilon}:${e.delta}`, loss: () => randomizedResponseLoss(e.epsilon, e.delta) };
  }
}

/** Largest ε₀ the grid takes for a dominating (ε₀, δ₀) pair (a lone pure step of ε 5000 is accounted exactly). */
const MAX_DOMINATING_EPSILON = 5000;

function nearlyNoiselessDiscreteGaussian(e: PrivacyEvent): boolean {
  const dg = e.kind === 'composed' && e.count <= 2 ? e.event : e;
  const k = e.kind === 'composed' ? e.count : 1;
  return dg.kind === 'discrete-gaussian' && (k * dg.sensitivity ** 2) / (2 * dg.sigma ** 2) > NEARLY_NOISELESS_LOSS;
}

/**
 * The discrete Gaussian on k ≤ 2 coordinates each moved by 1 (discreteGaussianLoss.ts); any other
 * ℓ2 sensitivity or a table too large is left to RDP.
 */
function discreteGaussianBase(e: Extract<PrivacyEvent, { kind: 'discrete-gaussian' }>, k: 1 | 2): Base {
  // The event's sensitivity is an ℓ2 norm: only Δ₂ = 1 pins the change to one count moved by 1. A larger
  // integer norm may be spread over several counts (Δ₂ = 2: four counts by 1 costs more than one count
  // by 2), so it is left to RDP's bound on the ℓ2 norm (CKS Thm 4, multivariate).
  if (e.sensitivity !== 1) throw new UnsupportedByPldError(e, 'the exact discrete-Gaussian PLD is taken for ℓ2 sensitivity 1 (one count moved by 1); state a change of several counts as a composition');
  if (discreteGaussianTableSize(e.sigma, e.sensitivity, k) > MAX_DISCRETE_GAUSSIAN_TABLE) throw new UnsupportedByPldError(e, `σ = ${e.sigma} is too large for its exact loss table`);
  if ((k * e.sensitivity ** 2) / (2 * e.sigma ** 2) > NEARLY_NOISELESS_LOSS) {
    const dominating = discreteGaussianApproxDp(e.sigma, e.sensitivity, k);
    if (dominating.epsilon > MAX_DOMINATING_EPSILON) throw new UnsupportedByPldError(e, `σ = ${e.sigma} is nearly noiseless: ε ≈ ${dominating.epsilon.toPrecision(3)} is beyond the grid (RDP charges it)`);
    return baseOf(approxDp(dominating.epsilon, dominating.delta) as Extract<PrivacyEvent, { kind: 'approx' }>);
  }
  return { key: `dgauss:${e.sigma}:${e.sensitivity}:${k}`, loss: () => discreteGaussianLoss(e.sigma, e.sensitivity, k) };
}

/** The one mechanism a Poisson sampler wraps; null when it releases nothing, undefined when unsupported. */
function poissonBase(inner: PrivacyEvent): Base | null | undefined {
  if (inner.kind === 'laplace' || inner.kind === 'pure' || inner.kind === 'approx') return baseOf(inner);
  if (inner.kind === 'discrete-gaussian') return discreteGaussianBase(inner, 1);
  if (inner.kind === 'composed' && inner.event.kind === 'discrete-gaussian' && (inner.count === 1 || inner.count === 2)) return discreteGaussianBase(inner.event, inner.count);
  const precision = gaussianPrecision(inner);
  if (precision === undefined) return pureAndGaussianBase(inner);
  if (precision === 0) return null;
  const mu = Math.sqrt(precision);
  return { key: `gaussian:${mu}`, loss: () => gaussianLoss(mu) };
}

/** Most ε-DP parts one sampled step may hold (the product pair enumerates their sign sums). */
const MAX_PURE_PARTS = 12;

/** ε-DP mechanisms and Gaussians on the same sample (composed or in sequence) as one pair; undefined for anything else. */
function pureAndGaussianBase(inner: PrivacyEvent): Base | undefined {
  const epsilons: number[] = [];
  let precision = 0;
  const collect = (e: PrivacyEvent, count: number): boolean => {
    if (e.neighbouring !== 'add-remove') return false;
    switch (e.kind) {
      case 'pure':
        for (let i = 0; i < count; i++) if (e.epsilon > 0) epsilons.push(e.epsilon);
        return epsilons.length <= MAX_PURE_PARTS;
      case 'gaussian':
        precision += count * (e.sensitivity / e.sigma) ** 2;
        return true;
      case 'composed':
        return count * e.count <= MAX_PURE_PARTS * 64 && collect(e.event, count * e.count);
      case 'sequence':
        return e.events.every((child) => collect(child, count));
      default:
        return false;
    }
  };
  if (!collect(inner, 1) || epsilons.length > MAX_PURE_PARTS) return undefined;
  epsilons.sort((a, b) => a - b);
  const mu = Math.sqrt(precision);
  return { key: `pure-gaussian:${epsilons.join(',')}:${mu}`, loss: () => pureAndGaussianLoss(epsilons, mu) };
}

/** Σ (Δ/σ)² if the event is Gaussians only (composed or in sequence), else undefined. */
function gaussianPrecision(e: PrivacyEvent): number | undefined {
  if (e.neighbouring !== 'add-remove') return undefined;
  switch (e.kind) {
    case 'gaussian':
      return (e.sensitivity / e.sigma) ** 2;
    case 'composed': {
      const inner = gaussianPrecision(e.event);
      return inner === undefined ? undefined : e.count * inner;
    }
    case 'sequence': {
      let sum = 0;
      for (const child of e.events) {
        const p = gaussianPrecision(child);
        if (p === undefined) return undefined;
        sum += p;
      }
      return sum;
    }
    default:
      return undefined;
  }
}
