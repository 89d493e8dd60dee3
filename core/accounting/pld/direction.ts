/**
 * One neighbouring direction (remove or add) of a composition at grid spacing h: discretise
 * every part, choose the FFT window, compose, and expose δ(ε) / ε(δ) bounds.
 *   upper δ = δ of the composed connect-the-dots PLD + mass outside the window + FFT rounding;
 *   lower δ = test-set bound of the composed labels − label mass outside the window − rounding.
 * The first two terms are proven; the FFT rounding term is an estimate (compose.ts), so these
 * bounds are certified up to float64 rounding of the FFT, not beyond it.
 */
import { convolvePower } from './compose';
import { discretise, GridRangeError, type Discretisation } from './discretise';
import type { LossDistribution } from './lossDistribution';
import { deltaAt, epsilonFor, labelDelta } from './query';
import { bisectPositive } from './solve';
import { edges, windowOffset, windowSize, windowTails } from './window';

export interface DirectionPart {
  loss: LossDistribution;
  count: number;
  /** Losses [lo, hi] carrying all but a negligible tail (lossRange). */
  range: { lo: number; hi: number };
}

export interface DirectionBounds {
  /** FFT size used. */
  size: number;
  /** Width in loss units of the window the composition needed (before rounding the size up to a power of two). */
  width: number;
  /** Each part's discretisation at h (as `discretise` gives it; read-only), for reuse at the same grid. */
  grids: readonly Discretisation[];
  /** δ the bounds carry for truncation and rounding (upper + lower), which a finer grid does not remove. */
  slack: number;
  deltaUpper(epsilon: number): number;
  deltaLower(epsilon: number): number;
  epsilonUpper(delta: number): number;
  epsilonLower(delta: number): number;
}

/** Relative precision of the lower ε (found by bisection on the lower δ). */
const BISECTION_TOLERANCE = 1e-9;

export function evaluateDirection(parts: DirectionPart[], h: number, tail: number): DirectionBounds {
  const grids = parts.map((p) => discretise(p.loss, h, p.range));
  const discrete = grids.map((g, i) => ({ ...g, count: parts[i].count }));
  // Losses of hundreds of nats can overflow e^{loss} in float64: a NaN in the upper PMF would read as
  // δ = NaN and ε = 0 (an under-charge), so it is refused; unusable labels only drop the lower bound to 0.
  if (!discrete.every((d) => allFinite(d.upper.masses) && Number.isFinite(d.upper.infinityMass))) {
    throw new GridRangeError(`a loss quantity overflowed float64 at grid step ${h}`);
  }
  const labelsUsable = discrete.every(usableLabels);
  // Finite stand-ins keep the window and FFT finite (labels share complex signals with the upper PMF).
  if (!labelsUsable) for (const d of discrete) Object.assign(d, { labelsP: d.upper, labelsQ: new Float64Array(d.labelsQ.length), labelShift: 0 });
  const upperParts = discrete.map((d) => ({ pld: d.upper, count: d.count }));
  const labelParts = discrete.map((d) => ({ pld: d.labelsP, count: d.count }));
  // Label sums differ from loss sums by up to h per step: they get their own window.
  const upperEdges = edges(upperParts, h, tail);
  const labelEdges = edges(labelParts, h, tail);
  const size = windowSize([upperEdges, labelEdges]);
  const upperOffset = windowOffset(upperEdges, size);
  const labelOffset = windowOffset(labelEdges, size);
  const upperTails = windowTails(upperParts, h, upperEdges, upperOffset, size);
  const labelTails = windowTails(labelParts, h, labelEdges, labelOffset, size);
  const { signals, noise } = convolvePower(
    discrete.map((d) => ({ offset: d.upper.offset, signals: [d.upper.masses, d.labelsP.masses, d.labelsQ], count: d.count })),
    [upperOffset, labelOffset, labelOffset],
    size,
  );
  for (const signal of signals) for (let j = 0; j < size; j++) signal[j] = Math.max(0, signal[j]);
  const [upper, labelsP, labelsQ] = signals;
  if (!allFinite(upper) || !allFinite(noise)) throw new GridRangeError(`the composed PMF overflowed float64 at grid step ${h}`);
  const infinity = (pick: (d: (typeof discrete)[number]) => number): number =>
    -Math.expm1(discrete.reduce((sum, d) => sum + d.count * Math.log1p(-pick(d)), 0));
  const upperInfinity = infinity((d) => d.upper.infinityMass);
  const lowerInfinity = labelsUsable ? infinity((d) => d.labelsP.infinityMass) : 0;
  const upperSlack = upperTails.above + upperTails.below + size * noise[0];
  if (Number.isNaN(upperSlack) || Number.isNaN(upperInfinity)) throw new GridRangeError(`the window's tail bound overflowed float64 at grid step ${h}`);
  const steps = discrete.reduce((sum, d) => sum + d.count, 0);
  const shift = discrete.reduce((sum, d) => sum + d.count * d.labelShift, 0);
  // Label minus loss lies in [−c, h − c) per step (sd ≤ h/2): 5 sd of the sum, one cell more.
  const reach = 5 * h * Math.sqrt(steps) + h;
  const lowerSlack = labelTails.above + labelTails.below;
  const labels = { a: labelsP, b: labelsQ, offset: labelOffset, shift, infinityMass: lowerInfinity, below: steps * h - shift, noiseA: noise[1], noiseB: noise[2] };
  const lowerRaw = labelDelta(labels, h, reach);
  // 0 is always a valid lower bound: taken where the labels are unusable or a term overflowed (NaN).
  const deltaLower = (epsilon: number): number => {
    const delta = labelsUsable ? lowerRaw(epsilon) - lowerSlack : 0;
    return delta > 0 ? delta : 0;
  };
  const epsilonUpper = (delta: number): number =>
    delta <= upperSlack ? Infinity : Math.max(0, epsilonFor(upper, upperOffset, h, upperInfinity, delta - upperSlack));
  return {
    size,
    width: Math.max(upperEdges.top - upperEdges.bottom + 1, labelEdges.top - labelEdges.bottom + 1) * h,
    grids,
    slack: upperSlack + lowerSlack,
    deltaUpper: (epsilon) => Math.min(1, deltaAt(upper, upperOffset, h, upperInfinity, epsilon) + upperSlack),
    deltaLower,
    epsilonUpper,
    epsilonLower(delta) {
      if (deltaLower(0) <= delta) return 0;
      if (lowerInfinity - lowerSlack > delta) return Infinity;
      const guess = epsilonUpper(delta); // the lower ε is below it: start the bracket there
      return bisectPositive((epsilon) => deltaLower(epsilon) <= delta, guess > 0 && Number.isFinite(guess) ? guess : 1, BISECTION_TOLERANCE).lo;
    },
  };
}

function allFinite(values: ArrayLike<number>): boolean {
  for (let j = 0; j < values.length; j++) if (!Number.isFinite(values[j])) return false;
  return true;
}

const usableLabels = (d: Discretisation): boolean => allFinite(d.labelsP.masses) && allFinite(d.labelsQ) && Number.isFinite(d.labelShift);
