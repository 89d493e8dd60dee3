/**
 * The PLD accountant: composes the event's privacy-loss distributions by FFT on a grid
 * chosen from the event and refined until the bounds are tight (proven up to the estimated
 * FFT rounding, see compose.ts), in both
 * neighbouring directions (dp_accounting convention: report the worse).
 *   upper: connect-the-dots PLD (pessimistic) + truncated tails + FFT rounding level;
 *   lower: test-set bound on the cell labels (optimistic) − truncated tails − rounding;
 *   estimate: their midpoint.
 * Plain Gaussian compositions are exact in closed form (their PLD is N(μ²/2, μ²)), and so are
 * events made only of (ε₀, δᵢ)-DP / ε₀-DP steps sharing one ε₀ (optimalComposition.ts).
 */
import type { Accountant, Bounds } from '../accountant';
import { analyticGaussianLogDelta } from '../analyticGaussian';
import { privacyEventSchema, type PrivacyEvent } from '../events';
import { discretise, GridRangeError, lossRange } from './discretise';
import { evaluateDirection, type DirectionBounds, type DirectionPart } from './direction';
import { gaussianLoss } from './lossDistribution';
import { optimalComposition, sharedEpsilonSteps } from './optimalComposition';
import { planEvent, UnsupportedByPldError, type Plan, type PlanPart } from './plan';
import { bisectPositive } from './solve';

export interface PldOptions {
  /**
   * Refine the grid until upper − lower ≤ relativeGap·upper + absoluteGap for ε (defaults
   * 1e-3 and 1e-6), and ≤ relativeGap·upper + 1e-11 + the carried truncation and rounding
   * slack for δ (a finer grid cannot remove those).
   */
  relativeGap?: number;
  absoluteGap?: number;
  /** Largest FFT size (default 2²²); the grid is not refined past it. */
  maxSize?: number;
}

/** Grid spacing relative to the per-step loss standard deviation to start from. */
const START_STEP = 0.3;
/** Tail mass left outside the window, relative to the δ of an ε query / absolute for δ queries. */
const TAIL_FRACTION = 1e-6;
const DELTA_QUERY_TAIL = 1e-16;
const MAX_REFINEMENTS = 6;
/** δ gaps below this are at the level of FFT rounding and not refined further. */
const DELTA_FLOOR = 1e-11;
/** Relative rounding allowance on the closed-form Gaussian δ (Cody's erfc: ~1e-15). */
const GAUSSIAN_ROUNDING = 1e-12;

const exact = (x: number): Bounds => ({ lower: x, estimate: x, upper: x });
const midpoint = (lower: number, upper: number): Bounds => ({ lower, estimate: upper === Infinity ? Infinity : (lower + upper) / 2, upper });

export function createPldAccountant(options: PldOptions = {}): Accountant {
  const relativeGap = options.relativeGap ?? 1e-3;
  const absoluteGap = options.absoluteGap ?? 1e-6;
  const maxSize = options.maxSize ?? 2 ** 22;

  /**
   * Evaluate each direction on its own grid, refining those whose bounds are wider than
   * floor + relativeGap·upper (of the combined answer) and that can still decide it. Every
   * round's bounds are certified, so each direction keeps their intersection.
   */
  function refine(plan: Plan, tail: number, floor: (d: DirectionBounds) => number, bounds: (d: DirectionBounds) => Bounds): Bounds {
    const directions = directionParts(plan, tail);
    // Never start finer than the largest FFT allows over the composed loss range: a nearly
    // deterministic loss (a lone pure ε-DP step at large ε) has a tiny spread but a wide range.
    const floorStep = (parts: DirectionPart[]) => parts.reduce((span, p) => span + p.count * (p.range.hi - p.range.lo), 0) / (maxSize / 4);
    const steps = directions.map((parts) => Math.max(START_STEP * stepScale(parts), floorStep(parts)));
    // A direction far narrower than another starts coarser: it is refined only if it matters.
    const coarsest = Math.max(...steps);
    const states = directions.map((parts, i) => ({
      parts,
      lattice: latticeStep(parts),
      h: Math.max(steps[i], coarsest / 8),
      best: { lower: -Infinity, estimate: NaN, upper: Infinity } as Bounds,
      floor: 0,
      stalls: 0,
      done: false,
    }));
    for (let round = 0; ; round++) {
      for (const state of states.filter((s) => !s.done)) {
        if (state.lattice) state.h = state.lattice / Math.ceil(state.lattice / state.h);
        const evaluated = evaluateDirection(state.parts, state.h, tail);
        const result = bounds(evaluated);
        const previousGap = state.best.upper - state.best.lower;
        state.best = midpoint(Math.max(state.best.lower, result.lower), Math.min(state.best.upper, result.upper));
        // Two rounds without halving the gap: it is FFT rounding or tail slack, not the grid.
        state.stalls = state.best.upper - state.best.lower > previousGap / 2 ? state.stalls + 1 : 0;
        state.done = round === MAX_REFINEMENTS || evaluated.size * 2 > maxSize || state.stalls >= 2;
        state.floor = floor(evaluated);
      }
      const combined = combine(states.map((s) => s.best));
      for (const state of states) {
        const gap = state.best.upper - state.best.lower;
        const target = relativeGap * combined.upper + state.floor;
        // Tight enough, or below another direction's lower bound (cannot decide the maximum).
        if (!(gap > target) || state.best.upper < combined.lower) state.done = true;
        else if (!state.done) state.h *= Math.min(1 / 1.5, Math.max(1 / 8, 0.9 * Math.sqrt(target / gap)));
      }
      if (Number.isNaN(combined.upper)) throw new GridRangeError('the upper bound came out NaN');
      if (states.every((s) => s.done)) return combined;
    }
  }

  return {
    name: 'pld',
    epsilon(event: PrivacyEvent, delta: number): Bounds {
      if (!(delta > 0 && delta < 1)) throw new RangeError(`pldAccountant.epsilon: δ must be in (0, 1), got ${delta}`);
      const parsed = privacyEventSchema.parse(event);
      const steps = sharedEpsilonSteps(parsed);
      if (steps) return optimalComposition(steps).epsilon(delta);
      const plan = planEvent(parsed);
      if (plan.parts.length === 0) return plan.gaussianPrecision > 0 ? gaussianEpsilon(Math.sqrt(plan.gaussianPrecision), delta) : exact(0);
      return beyondGrid(event, () => refine(plan, TAIL_FRACTION * delta, () => absoluteGap, (d) => midpoint(d.epsilonLower(delta), d.epsilonUpper(delta))));
    },
    delta(event: PrivacyEvent, epsilon: number): Bounds {
      if (!(epsilon >= 0)) throw new RangeError(`pldAccountant.delta: ε must be ≥ 0, got ${epsilon}`);
      const parsed = privacyEventSchema.parse(event);
      const steps = sharedEpsilonSteps(parsed);
      if (steps) return optimalComposition(steps).delta(epsilon);
      const plan = planEvent(parsed);
      if (plan.parts.length === 0) return plan.gaussianPrecision > 0 ? gaussianDelta(Math.sqrt(plan.gaussianPrecision), epsilon) : exact(0);
      return beyondGrid(event, () => refine(plan, DELTA_QUERY_TAIL, (d) => DELTA_FLOOR + d.slack, (d) => midpoint(d.deltaLower(epsilon), d.deltaUpper(epsilon))));
    },
  };
}

/** The grid's answer, or UnsupportedByPldError where float64 cannot carry the event's losses (the facade then uses RDP). */
export function beyondGrid<T>(event: PrivacyEvent, answer: () => T): T {
  try {
    return answer();
  } catch (error) {
    if (error instanceof GridRangeError) throw new UnsupportedByPldError(event, `its privacy losses are beyond the grid (${error.message})`);
    throw error;
  }
}

/** The worse direction decides every bound. */
function combine(all: Bounds[]): Bounds {
  return {
    lower: Math.max(...all.map((b) => b.lower)),
    estimate: Math.max(...all.map((b) => b.estimate)),
    upper: Math.max(...all.map((b) => b.upper)),
  };
}

/** Each neighbouring direction's parts (one direction when every pair is symmetric). */
function directionParts(plan: Plan, tail: number): DirectionPart[][] {
  const symmetric = plan.parts.every((p) => p.add === null);
  const gaussian = plan.gaussianPrecision > 0 ? [{ loss: gaussianLoss(Math.sqrt(plan.gaussianPrecision)), count: 1 }] : [];
  const build = (pick: (p: PlanPart) => DirectionPart['loss']): DirectionPart[] => {
    const parts = [...plan.parts.map((p) => ({ loss: pick(p), count: p.count })), ...gaussian];
    return parts.map((p) => ({ ...p, range: lossRange(p.loss, tail / (parts.length * p.count)) }));
  };
  const remove = build((p) => p.remove);
  return symmetric ? [remove] : [remove, build((p) => p.add ?? p.remove)];
}

/**
 * The largest grid step putting every point mass on the grid (exact pure-DP and Laplace
 * compositions): the smallest |atom| when all atoms are its integer multiples, else null.
 */
export function latticeStep(parts: DirectionPart[]): number | null {
  const atoms = parts.flatMap((p) => p.loss.atoms.map(Math.abs)).filter((a) => a > 0);
  if (atoms.length === 0) return null;
  const unit = Math.min(...atoms);
  return atoms.every((a) => Math.abs(a / unit - Math.round(a / unit)) < 1e-9) ? unit : null;
}

/**
 * Root-mean-square per-step standard deviation of the loss, from a coarse grid: each cell
 * collapsed to its conditional mean, at ℓ* = y − log(e^{y}·Q(cell)/P(cell)) up to the
 * labels' common shift (the discretisation error scales with h/this).
 */
export function stepScale(parts: DirectionPart[]): number {
  let variance = 0;
  let steps = 0;
  for (const { loss, count, range } of parts) {
    const h = Math.max(range.hi - range.lo, 1e-12) / 1024;
    const { labelsP, labelsQ } = discretise(loss, h, range);
    let total = 0;
    let first = 0;
    let second = 0;
    const { masses, offset } = labelsP;
    for (let k = 0; k < masses.length; k++) {
      const p = masses[k];
      if (!(p > 0)) continue;
      const x = (offset + k) * h - Math.log(Math.max(1e-300, labelsQ[k] / p));
      total += p;
      first += p * x;
      second += p * x * x;
    }
    variance += count * Math.max(0, second / total - (first / total) ** 2);
    steps += count;
  }
  return Math.max(Math.sqrt(variance / steps), 1e-9);
}

/** ε of a Gaussian with μ = Δ/σ: bisection on the exact δ(ε) (Balle & Wang 2018). */
function gaussianEpsilon(mu: number, delta: number): Bounds {
  const logDelta = (epsilon: number): number => analyticGaussianLogDelta(epsilon, 1 / mu, 1);
  const logTarget = Math.log(delta);
  if (logDelta(0) <= logTarget) return exact(0);
  const { lo, hi } = bisectPositive((epsilon) => logDelta(epsilon) <= logTarget, 1, 1e-12);
  return midpoint(lo, hi);
}

function gaussianDelta(mu: number, epsilon: number): Bounds {
  const delta = Math.exp(analyticGaussianLogDelta(epsilon, 1 / mu, 1));
  return { lower: delta * (1 - GAUSSIAN_ROUNDING), estimate: delta, upper: Math.min(1, delta * (1 + GAUSSIAN_ROUNDING)) };
}

export const pldAccountant: Accountant = createPldAccountant();
