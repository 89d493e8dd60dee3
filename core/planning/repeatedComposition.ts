/**
 * ε upper bounds of `fixed ∘ repeated^n` for many counts n (and several δ) from one
 * discretisation. The planner's curves and count searches (ε against the number of queries,
 * the break-even, "N more of this kind", the ε(δ) curve) ask one composition at dozens of
 * counts, and every fresh PLD query refines its own grid from scratch.
 *
 * Here the grid is refined once, at the largest count, with the PLD accountant's own
 * evaluation of a neighbouring direction (core/accounting/pld/direction.ts: connect-the-dots
 * upper and test-set lower bounds) until the bounds are within `relativeGap` there, at every
 * δ asked. Then each part's upper PLD is transformed once (FFT), and a count n costs a
 * pointwise power of those spectra (binary powering, as core/accounting/pld/compose.ts does
 * for Composed(e, T)), one inverse transform and a Chernoff window — no new discretisation.
 *
 * Every number is a certified upper bound, as the accountant's: δ of the composed
 * connect-the-dots PLD (pessimistic on any grid, for any number of compositions) + the mass
 * outside the window (Chernoff bounds P(S ≥ b) ≤ exp(K(λ) − λb), Koskela et al. 2021, at a λ
 * from a fixed ladder, evaluated exactly) + the FFT rounding level (its largest negative
 * value, per point). Precision is checked at the largest count; fewer compositions of the
 * same per-step grid error are closer still (test/unit/core/planning compares with the
 * accountant). Where no finite bound comes out (δ at the rounding level, or a window that
 * does not fit) the answer is Infinity and the caller asks the accountant itself.
 *
 * The start of the grid refinement mirrors the accountant's (core/accounting/pld/accountant.ts:
 * step 0.3 of the per-step loss deviation, never finer than the largest transform allows,
 * a step dividing the lattice of point masses); each later step is made as fine as the
 * transform size it needs anyway allows (fillWindow), and the final round's discretisations
 * are the ones composed (no second discretisation at the final grid).
 */
import { privacyEventSchema, type PrivacyEvent } from '../accounting/events';
import { lossRange, type DiscretePld, type Discretisation } from '../accounting/pld/discretise';
import { evaluateDirection, type DirectionPart } from '../accounting/pld/direction';
import { inverseRealFft } from '../accounting/pld/fft';
import { gaussianLoss, type LossDistribution } from '../accounting/pld/lossDistribution';
import { planEvent, type Plan } from '../accounting/pld/plan';
import { epsilonFor } from '../accounting/pld/query';
import { beyondGrid, latticeStep, stepScale } from '../accounting/pld/accountant';
import { gridVariance, logMgf } from '../accounting/pld/window';
import { forEachSpectrum, mod, multiplyPower, unitSpectrum, type Spectrum } from './pldSpectrum';

export interface RepeatedCompositionOptions {
  /** Charged once in every composition (null: nothing). */
  fixed: PrivacyEvent | null;
  /** Charged n times. */
  repeated: PrivacyEvent;
  /** Largest n that will be asked. */
  maxCount: number;
  /** The δ that will be asked: the grid is refined for each, the window tails sized for the smallest. */
  deltas: readonly number[];
  /** Refine until upper − lower ≤ relativeGap·upper + 1e-6 at maxCount (default 1e-2). */
  relativeGap?: number;
  /** Largest FFT size (default 2²²). */
  maxSize?: number;
}

export interface RepeatedComposition {
  readonly maxCount: number;
  /** Transform size of each neighbouring direction. */
  readonly sizes: readonly number[];
  /** Certified upper bound of ε(fixed ∘ repeated^n) at δ; Infinity where this cannot give a finite one. */
  epsilonUpper(n: number, delta: number): number;
}

const START_STEP = 0.3;
const TAIL_FRACTION = 1e-6;
const MAX_REFINEMENTS = 6;
const ABSOLUTE_GAP = 1e-6;
/** The λ of the Chernoff bounds is exp(k / LADDER) for an integer k: shared (cached) between counts. */
const LADDER = 16;
/** Room left in the window for a step chosen to fill it (fillWindow). */
const FILL_MARGIN = 1.1;
/** Composed results kept for repeated δ queries at one count. */
const KEEP_COMPOSED = 4;

interface Part {
  remove: LossDistribution;
  add: LossDistribution | null;
  fixed: number;
  perCopy: number;
}

/**
 * ε bounds for fixed ∘ repeated^n, n ≤ maxCount; null when no part needs a grid (plain
 * Gaussians only: the accountant's closed form is exact and cheap). Throws
 * UnsupportedByPldError where the PLD accountant cannot take the events.
 */
export function createRepeatedComposition(options: RepeatedCompositionOptions): RepeatedComposition | null {
  return beyondGrid(options.repeated, () => buildRepeatedComposition(options));
}

function buildRepeatedComposition(options: RepeatedCompositionOptions): RepeatedComposition | null {
  const { maxCount, deltas } = options;
  if (!(Number.isInteger(maxCount) && maxCount >= 1)) throw new RangeError(`repeatedComposition: maxCount must be a positive integer, got ${maxCount}`);
  if (deltas.length === 0 || !deltas.every((d) => d > 0 && d < 1)) throw new RangeError('repeatedComposition: every δ must be in (0, 1)');
  const fixed = options.fixed && privacyEventSchema.parse(options.fixed);
  const repeated = privacyEventSchema.parse(options.repeated);
  if (fixed && fixed.neighbouring !== repeated.neighbouring) throw new RangeError(`repeatedComposition: '${fixed.neighbouring}' and '${repeated.neighbouring}' events do not compose`);
  const fixedPlan = fixed ? planEvent(fixed) : null;
  const repeatedPlan = planEvent(repeated);
  if ((fixedPlan?.parts.length ?? 0) + repeatedPlan.parts.length === 0) return null;
  const parts = [...(fixedPlan ? partsOf(fixedPlan, true) : []), ...partsOf(repeatedPlan, false)];
  const count = (p: Part, n: number): number => p.fixed + n * p.perCopy;
  const relativeGap = options.relativeGap ?? 1e-2;
  const maxSize = options.maxSize ?? 2 ** 22;
  const tail = TAIL_FRACTION * Math.min(...deltas);
  const symmetric = parts.every((p) => p.add === null);
  const pick: ((p: Part) => LossDistribution)[] = symmetric ? [(p) => p.remove] : [(p) => p.remove, (p) => p.add ?? p.remove];

  // Refine each direction's grid at maxCount (the accountant's loop, over every δ asked).
  const atMax = parts.map((p) => count(p, maxCount));
  const states = pick.map((loss) => {
    const dirParts: DirectionPart[] = parts.map((p, i) => ({ loss: loss(p), count: atMax[i], range: lossRange(loss(p), tail / (parts.length * atMax[i])) }));
    return { dirParts, lattice: latticeStep(dirParts), h: Math.max(START_STEP * stepScale(dirParts), floorStep(dirParts, maxSize)), size: 0, width: 0, grids: [] as readonly Discretisation[], gridsAt: NaN, best: deltas.map(() => ({ lower: -Infinity, upper: Infinity })), gap: Infinity, stalls: 0, done: false };
  });
  const coarsest = Math.max(...states.map((s) => s.h));
  for (const s of states) s.h = Math.max(s.h, coarsest / 8);
  for (let round = 0; ; round++) {
    for (const s of states.filter((x) => !x.done)) {
      if (s.lattice) s.h = s.lattice / Math.ceil(s.lattice / s.h);
      const evaluated = evaluateDirection(s.dirParts, s.h, tail);
      [s.size, s.width] = [evaluated.size, evaluated.width];
      [s.grids, s.gridsAt] = [evaluated.grids, s.h];
      s.best = deltas.map((d, k) => ({ lower: Math.max(s.best[k].lower, evaluated.epsilonLower(d)), upper: Math.min(s.best[k].upper, evaluated.epsilonUpper(d)) }));
      s.done = round === MAX_REFINEMENTS || evaluated.size * 2 > maxSize;
    }
    const combined = deltas.map((_, k) => ({ lower: Math.max(...states.map((s) => s.best[k].lower)), upper: Math.max(...states.map((s) => s.best[k].upper)) }));
    for (const s of states) {
      // Worst ratio of gap to target over the δ this direction can decide; an infinite upper
      // bound (a grid too coarse for the tails, or rounding slack) is refined like any gap
      // until the rounds or the size run out, as the accountant does.
      // Two rounds without halving the gap: it is FFT rounding or tail slack, not the grid.
      // The next step aims at the target the final answer will have (relativeGap of ε, which
      // lies above the best lower bound): the loose upper bound of another direction would
      // make it lenient and cost a round at the largest size.
      let badness = 0;
      let aim = 0;
      let gap = 0;
      deltas.forEach((_, k) => {
        const { lower, upper } = s.best[k];
        if (upper < combined[k].lower) return;
        badness = Math.max(badness, (upper - lower) / (relativeGap * combined[k].upper + ABSOLUTE_GAP));
        aim = Math.max(aim, (upper - lower) / (relativeGap * Math.max(0, combined[k].lower) + ABSOLUTE_GAP));
        gap = Math.max(gap, upper - lower);
      });
      s.stalls = gap > s.gap / 2 ? s.stalls + 1 : 0;
      s.gap = gap;
      if (!(badness > 1) || s.stalls >= 2) s.done = true;
      else if (!s.done) {
        const h = s.h * Math.min(1 / 1.5, Math.max(1 / 16, 0.9 / Math.sqrt(aim)));
        const filled = fillWindow(h, s.width);
        // On a lattice the step divides it: the finest divisor no finer than the filled step (or h's own).
        s.h = s.lattice ? s.lattice / Math.max(Math.ceil(s.lattice / h), Math.floor(s.lattice / filled)) : filled;
      }
    }
    if (states.every((s) => s.done)) break;
  }

  // Each direction composes at the grid its last round evaluated (and reuses that round's discretisations).
  if (!states.every((s) => s.gridsAt === s.h)) throw new Error('repeatedComposition: a direction moved off its last evaluated grid');
  const directions = states.map((s) => new Direction(parts.map((p, i) => ({ pld: s.grids[i].upper, fixed: p.fixed, perCopy: p.perCopy })), s.h, s.size, tail));
  const cache = new Map<number, ComposedUpper[] | null>();
  const composedAt = (n: number): ComposedUpper[] | null => {
    const hit = cache.get(n);
    if (hit !== undefined) return hit;
    const counts = parts.map((p) => count(p, n));
    let result: ComposedUpper[] | null = [];
    if (counts.some((c) => c > 0)) {
      for (const direction of directions) {
        const composed = direction.compose(n, counts);
        if (!composed) {
          result = null;
          break;
        }
        result.push(composed);
      }
    }
    if (cache.size >= KEEP_COMPOSED) cache.delete(cache.keys().next().value!);
    cache.set(n, result);
    return result;
  };
  const smallestDelta = Math.min(...deltas);
  return {
    maxCount,
    sizes: directions.map((d) => d.size),
    epsilonUpper(n: number, delta: number): number {
      if (!(Number.isInteger(n) && n >= 0 && n <= maxCount)) throw new RangeError(`repeatedComposition: n must be an integer in [0, ${maxCount}], got ${n}`);
      if (!(delta >= smallestDelta && delta < 1)) throw new RangeError(`repeatedComposition: δ = ${delta} is below the smallest δ it was built for (${smallestDelta})`);
      const composed = composedAt(n);
      return composed === null ? Infinity : composed.reduce((worst, c) => Math.max(worst, c.epsilonUpper(delta)), 0);
    },
  };
}

function partsOf(plan: Plan, fixed: boolean): Part[] {
  const counts = (c: number) => (fixed ? { fixed: c, perCopy: 0 } : { fixed: 0, perCopy: c });
  const parts: Part[] = plan.parts.map((p) => ({ remove: p.remove, add: p.add, ...counts(p.count) }));
  // Plain Gaussians compose exactly into one; as a part they are discretised like any other.
  if (plan.gaussianPrecision > 0) parts.push({ remove: gaussianLoss(Math.sqrt(plan.gaussianPrecision)), add: null, ...counts(1) });
  return parts;
}

interface ComposedUpper {
  epsilonUpper(delta: number): number;
}

/**
 * One neighbouring direction at its refined grid: the parts' upper PLDs and two spectra, the
 * fixed parts' Π Fᵢ^{fixedᵢ} and one copy's Π Fᵢ^{perCopyᵢ}; n copies are fixed · copy^n.
 */
class Direction {
  private readonly discrete: DiscretePld[];
  private readonly fixed: Spectrum;
  private readonly copy: Spectrum;
  /** Per part, the variance of its PLD in grid units (for the first λ of the ladder). */
  private readonly variances: number[];
  /** Per part, log E[e^{λL}] at λ = ±exp(k / LADDER), keyed by ±k. */
  private readonly mgf: Map<number, number>[];

  constructor(
    parts: { pld: DiscretePld; fixed: number; perCopy: number }[],
    readonly h: number,
    readonly size: number,
    private readonly tail: number,
  ) {
    this.discrete = parts.map((p) => p.pld);
    this.variances = this.discrete.map(gridVariance);
    this.mgf = this.discrete.map(() => new Map());
    [this.fixed, this.copy] = [unitSpectrum(size), unitSpectrum(size)];
    forEachSpectrum(this.discrete, size, (i, spectrum) => {
      const { fixed, perCopy } = parts[i];
      multiplyPower(fixed > 0 ? this.fixed : this.copy, spectrum, fixed > 0 ? fixed : perCopy);
    });
  }

  /** The composed upper PLD of the fixed parts and n copies (part counts `counts`), or null when its window does not fit the transform. */
  compose(n: number, counts: number[]): ComposedUpper | null {
    const { h, size } = this;
    const active = counts.flatMap((c, i) => (c > 0 ? [i] : []));
    const up = this.edge(active, counts, 1);
    const down = this.edge(active, counts, -1);
    const bottom = Math.floor(down.at / h);
    const top = Math.ceil(up.at / h);
    if (!(top - bottom + 1 <= size)) return null;
    const offset = bottom - Math.floor((size - (top - bottom + 1)) / 2);
    const above = Math.exp(this.cumulant(active, counts, up.k, 1) - up.lambda * (offset + size) * h);
    const below = Math.exp(this.cumulant(active, counts, down.k, -1) + down.lambda * (offset - 1) * h);

    const acc = { re: this.fixed.re.slice(), im: this.fixed.im.slice() };
    multiplyPower(acc, this.copy, n);
    const re = new Float64Array(size);
    inverseRealFft(acc.re, acc.im, re);
    const masses = new Float64Array(size);
    let noise = 0;
    for (let j = 0, p = mod(offset, size); j < size; j++, p = p + 1 === size ? 0 : p + 1) {
      noise = Math.max(noise, -re[p]);
      masses[j] = Math.max(0, re[p]);
    }
    const infinity = -Math.expm1(active.reduce((sum, i) => sum + counts[i] * Math.log1p(-this.discrete[i].infinityMass), 0));
    const slack = above + below + size * noise;
    return {
      epsilonUpper: (delta) => (delta <= slack ? Infinity : Math.max(0, epsilonFor(masses, offset, h, infinity, delta - slack))),
    };
  }

  /**
   * The window edge on `side` holding all but `tail` of the composed mass: the b minimising
   * the Chernoff bound over λ on the ladder (b(λ) = ±(K(±λ) − log tail)/λ is unimodal in log λ).
   */
  private edge(active: number[], counts: number[], side: 1 | -1): { at: number; k: number; lambda: number } {
    const logTail = Math.log(this.tail);
    const at = (k: number): number => (side * (this.cumulant(active, counts, k, side) - logTail)) / Math.exp(k / LADDER);
    const better = (a: number, b: number): boolean => (side === 1 ? a < b : a > b);
    let variance = 0;
    for (const i of active) variance += counts[i] * this.variances[i];
    const spread = Math.max(1, Math.sqrt(variance)) * this.h;
    let best = Math.round(LADDER * Math.log(Math.sqrt(-2 * logTail) / spread));
    let bestValue = at(best);
    // Walk the ladder downhill: coarse steps, then single ones.
    for (let step = 4 * LADDER; step >= 1; step = Math.floor(step / 2)) {
      for (;;) {
        const candidates = [best - step, best + step].map((k) => ({ k, value: at(k) }));
        const next = candidates.find((c) => better(c.value, bestValue));
        if (!next) break;
        [best, bestValue] = [next.k, next.value];
      }
    }
    return { at: bestValue, k: best, lambda: Math.exp(best / LADDER) };
  }

  /** K(±λ) = Σ nᵢ·log E[e^{±λ Lᵢ}] at λ = exp(k / LADDER). */
  private cumulant(active: number[], counts: number[], k: number, side: 1 | -1): number {
    let sum = 0;
    for (const i of active) {
      const key = side * (k + 1e6);
      let value = this.mgf[i].get(key);
      if (value === undefined) this.mgf[i].set(key, (value = logMgf(this.discrete[i], this.h, side * Math.exp(k / LADDER))));
      sum += counts[i] * value;
    }
    return sum;
  }
}

/**
 * The finest step (never coarser than `h`) whose window fits the transform size that step `h`
 * needs anyway: the cost of a round is its transform size, the precision its step. The window's
 * width in loss units is the one measured at the previous step, which can be FILL_MARGIN off
 * either way (near a power of two `h` is kept).
 */
function fillWindow(h: number, width: number): number {
  if (!(width > 0)) return h;
  const size = 2 ** Math.ceil(Math.log2(width / (FILL_MARGIN * h)));
  return Math.min(h, (FILL_MARGIN * width) / size);
}

/** Never start finer than the largest FFT allows over the composed loss range. */
function floorStep(parts: DirectionPart[], maxSize: number): number {
  return parts.reduce((span, p) => span + p.count * (p.range.hi - p.range.lo), 0) / (maxSize / 4);
}
