/**
 * The RDP curve of a privacy event: ε(α) at each order, plus the δ of approximate RDP
 * (as in Bun & Steinke 2016's approximate zCDP: outside an event of probability ≤ δ the
 * outputs are (α, ε(α))-RDP close). Only (ε, δ) events carry δ > 0; they are charged the RDP of randomised response
 * at ε, as in dp_accounting's EpsilonDeltaDpEvent. Composition adds curves (Mironov 2017,
 * Prop. 1) and combines δ as 1 − Π(1 − δᵢ).
 */
import { privacyEventSchema, type Neighbouring, type PrivacyEvent } from '../events';
import { gaussianLogEvenMoment } from './gaussianMoments';
import { gaussianRdp, laplaceRdp, pureDpRdp } from './mechanisms';
import { DEFAULT_RDP_ORDERS } from './orders';
import { poissonGaussianRdp } from './poissonGaussian';
import { poissonGeneralRdp } from './poissonGeneral';
import { withoutReplacementCurve } from './withoutReplacement';

export interface RdpCurve {
  orders: readonly number[];
  /** ε(α) at each order, same length as `orders`. */
  rdp: number[];
  /** Probability mass outside the RDP guarantee (approximate RDP); 0 for most events. */
  delta: number;
}

/** Thrown for events the RDP accountant has no sound bound for. */
export class RdpUnsupportedEventError extends Error {
  constructor(
    readonly event: PrivacyEvent,
    reason: string,
  ) {
    super(`RDP accountant cannot take a '${event.kind}' event: ${reason}`);
    this.name = 'RdpUnsupportedEventError';
  }
}

/** RDP curve of `event` at `orders` (each > 1). Validates the event first (ZodError if malformed). */
export function rdpCurve(event: PrivacyEvent, orders: readonly number[] = DEFAULT_RDP_ORDERS): RdpCurve {
  for (const alpha of orders) {
    if (!(alpha > 1) || !Number.isFinite(alpha)) throw new RangeError(`rdpCurve: orders must be finite and > 1, got ${alpha}`);
  }
  return curveOf(privacyEventSchema.parse(event), orders);
}

function curveOf(event: PrivacyEvent, orders: readonly number[]): RdpCurve {
  const pointwise = (f: (alpha: number) => number, delta = 0): RdpCurve => ({ orders, rdp: orders.map(f), delta });
  switch (event.kind) {
    case 'gaussian':
      return pointwise((a) => gaussianRdp(a, event.sigma, event.sensitivity));
    case 'discrete-gaussian':
      // Canonne, Kamath & Steinke, "The Discrete Gaussian for Differential Privacy" (NeurIPS 2020),
      // Thm 4 and its multivariate version: ½(Δ₂/σ)²-zCDP, i.e. the continuous Gaussian's RDP curve.
      return pointwise((a) => gaussianRdp(a, event.sigma, event.sensitivity));
    case 'laplace':
      return pointwise((a) => laplaceRdp(a, event.scale, event.sensitivity));
    case 'pure':
      return pointwise((a) => pureDpRdp(a, event.epsilon));
    case 'approx':
      return pointwise((a) => pureDpRdp(a, event.epsilon), event.delta);
    case 'poisson-sampled': {
      if (event.neighbouring !== 'add-remove') {
        throw new RdpUnsupportedEventError(event, 'Poisson subsampling is analysed under add/remove neighbouring only');
      }
      requireRelation(event, event.event, 'add-remove');
      if (event.q === 1) return curveOf(event.event, orders);
      const sigma = gaussianNoiseMultiplier(event.event);
      // Discrete Gaussians: without the amplification. Sound: for either neighbour the subsampled pair
      // is a mixture with the identical pair, and E_B[(A/B)^α] is jointly convex, so its RDP is at most the
      // unsampled mechanism's (whose pair is symmetric). Loose; PLD gives the tight answer.
      if (sigma === undefined && onlyDiscreteGaussians(event.event)) return curveOf(event.event, orders);
      if (sigma === undefined) return poissonSampledAny(event, orders);
      return sigma === Infinity ? pointwise(() => 0) : { orders, rdp: poissonGaussianCurve(orders, event.q, sigma), delta: 0 };
    }
    case 'sampled-without-replacement':
      return withoutReplacement(event, orders);
    case 'composed': {
      requireRelation(event, event.event, event.neighbouring);
      const inner = curveOf(event.event, orders);
      return { orders, rdp: inner.rdp.map((r) => times(event.count, r)), delta: -Math.expm1(times(event.count, Math.log1p(-inner.delta))) };
    }
    case 'sequence': {
      const total: RdpCurve = { orders, rdp: orders.map(() => 0), delta: 0 };
      let logNoFailure = 0;
      for (const child of event.events) {
        requireRelation(event, child, event.neighbouring);
        const curve = curveOf(child, orders);
        curve.rdp.forEach((r, i) => (total.rdp[i] += r));
        logNoFailure += Math.log1p(-curve.delta);
      }
      total.delta = -Math.expm1(logNoFailure);
      return total;
    }
  }
}

function withoutReplacement(event: Extract<PrivacyEvent, { kind: 'sampled-without-replacement' }>, orders: readonly number[]): RdpCurve {
  if (event.neighbouring !== 'replace-one') {
    throw new RdpUnsupportedEventError(event, 'sampling without replacement is analysed under replace-one neighbouring only');
  }
  requireRelation(event, event.event, 'replace-one');
  const gamma = event.sampleSize / event.populationSize;
  if (gamma === 1) return curveOf(event.event, orders);
  const maxOrder = Math.ceil(Math.max(2, ...orders));
  const grid = [...new Set([...orders, ...Array.from({ length: maxOrder - 1 }, (_, i) => i + 2)])];
  const base = curveOf(event.event, grid);
  if (base.delta > 0) throw new RdpUnsupportedEventError(event, 'the subsampled mechanism must have δ = 0');
  const baseAt = new Map(grid.map((alpha, i) => [alpha, base.rdp[i]]));
  const sigma = gaussianNoiseMultiplier(event.event, 'replace-one');
  const rdp = withoutReplacementCurve(orders, gamma, {
    rdp: (alpha) => baseAt.get(alpha)!,
    epsilonInfinity: pureEpsilon(event.event),
    logEvenMoment: sigma === undefined || sigma === Infinity ? undefined : gaussianLogEvenMoment(1 / sigma),
  });
  return { orders, rdp, delta: 0 };
}

/** A Poisson-sampled step that is not Gaussians only: the general bound (poissonGeneral.ts) from the inner curve. */
function poissonSampledAny(event: Extract<PrivacyEvent, { kind: 'poisson-sampled' }>, orders: readonly number[]): RdpCurve {
  const inner = curveOf(event.event, orders);
  const maxOrder = Math.max(2, Math.ceil(Math.max(...orders)));
  const integers = curveOf(event.event, Array.from({ length: maxOrder - 1 }, (_, i) => i + 2));
  if (inner.delta > 0 || integers.delta > 0) throw new RdpUnsupportedEventError(event, 'a Poisson-sampled step with δ > 0 has no RDP bound here');
  return { orders, rdp: poissonGeneralRdp(orders, event.q, (l) => integers.rdp[l - 2], (i) => inner.rdp[i]), delta: 0 };
}

/**
 * The subsampled Gaussian's RDP at each order (poissonGaussian.ts), kept for the last few (q, σ)
 * per frozen order grid: a plan asks the same step's curve for its cross-check, its budget after and
 * its remaining count (a fresh copy each time; the values are those computed once).
 */
function poissonGaussianCurve(orders: readonly number[], q: number, sigma: number): number[] {
  // Keyed by the grid's identity: only a frozen grid can be trusted to hold the same orders.
  if (!Object.isFrozen(orders)) return orders.map((a) => poissonGaussianRdp(a, q, sigma));
  let kept = poissonGaussianCurves.get(orders);
  if (!kept) poissonGaussianCurves.set(orders, (kept = new Map()));
  const key = `${q} ${sigma}`;
  let rdp = kept.get(key);
  if (!rdp) {
    rdp = orders.map((a) => poissonGaussianRdp(a, q, sigma));
    if (kept.size >= KEPT_CURVES) kept.delete(kept.keys().next().value!);
    kept.set(key, rdp);
  }
  return rdp.slice();
}

const KEPT_CURVES = 16;
const poissonGaussianCurves = new WeakMap<readonly number[], Map<string, number[]>>();

function requireRelation(parent: PrivacyEvent, child: PrivacyEvent, relation: Neighbouring): void {
  if (child.neighbouring !== relation) {
    throw new RdpUnsupportedEventError(parent, `inner '${child.kind}' event is stated under '${child.neighbouring}', expected '${relation}'`);
  }
}

/**
 * Noise multiplier σ/Δ of an event that is one Gaussian mechanism, or several run on the same
 * data: they compose exactly into σ_eff = (Σ (σᵢ/Δᵢ)⁻²)^{−1/2} (ARCHITECTURE §4). Only
 * continuous Gaussians stated under `relation` qualify (not the discrete Gaussian).
 * Infinity for an empty composition; undefined if the event is not of that form.
 */
function gaussianNoiseMultiplier(event: PrivacyEvent, relation: Neighbouring = 'add-remove'): number | undefined {
  const precision = (e: PrivacyEvent): number | undefined => {
    if (e.neighbouring !== relation) return undefined;
    if (e.kind === 'gaussian') return (e.sensitivity / e.sigma) ** 2;
    if (e.kind === 'composed') {
      const inner = precision(e.event);
      return inner === undefined ? undefined : e.count * inner;
    }
    if (e.kind === 'sequence') {
      let sum = 0;
      for (const child of e.events) {
        const p = precision(child);
        if (p === undefined) return undefined;
        sum += p;
      }
      return sum;
    }
    return undefined;
  };
  const p = precision(event);
  return p === undefined ? undefined : 1 / Math.sqrt(p);
}

function onlyDiscreteGaussians(e: PrivacyEvent): boolean {
  if (e.kind === 'discrete-gaussian') return true;
  if (e.kind === 'composed') return onlyDiscreteGaussians(e.event);
  return e.kind === 'sequence' && e.events.every(onlyDiscreteGaussians);
}

/** ε(∞): the event's pure-DP ε, Infinity when it has none. */
function pureEpsilon(event: PrivacyEvent): number {
  switch (event.kind) {
    case 'laplace':
      return event.sensitivity / event.scale;
    case 'pure':
      return event.epsilon;
    case 'composed':
      return times(event.count, pureEpsilon(event.event));
    case 'sequence':
      return event.events.reduce((sum, e) => sum + pureEpsilon(e), 0);
    default:
      return Infinity;
  }
}

/** count·x with 0·∞ = 0 (zero repetitions cost nothing). */
function times(count: number, x: number): number {
  return count === 0 ? 0 : count * x;
}
