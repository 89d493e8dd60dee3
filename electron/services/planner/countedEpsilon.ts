/**
 * ε upper bounds of `fixed ∘ repeated^n` at many counts n, for the planner's curves and count
 * searches: a few RepeatedCompositions (core/planning/repeatedComposition.ts), each refined
 * once at the largest count it serves, and the 1 % accountant (`searchEpsilon`) wherever they
 * cannot answer — events PLD cannot take, plain Gaussians (closed form), bounds that come out
 * infinite (δ at the rounding level: RDP's bound then). Every value is a certified upper bound.
 *
 * A composition serves counts from its largest down to 1/REUSE of it (down to 1 where the
 * repeated event has no point masses; the fixed part may); a count beyond every composition built gets a new one at GROW times the count
 * (capped at `limit`), so a count search, whose guesses cluster around the crossing, builds
 * one or two — and asks the composition's largest count too (`reach`: no new discretisation),
 * which measures the growth where it searches and uses the whole range it paid for. Small counts of
 * events with point masses go to the accountant directly (DIRECT_BELOW) — except the limit itself: a
 * composition refined at exactly that count answers all the δ asked from one discretisation
 * (the ε(δ) curve of one plan), as precise as the accountant's own query. Answers are kept:
 * a search and a curve asking the same count pay once.
 */
import { composed, sequence, type PrivacyEvent } from '../../../core/accounting/events';
import { UnsupportedByPldError } from '../../../core/accounting/pld';
import { createRepeatedComposition, type RepeatedComposition } from '../../../core/planning/repeatedComposition';
import { searchEpsilon } from './fastAccounting';

const GROW = 2;
/**
 * A composition whose repeated steps have point masses, refined for n, serves down to n / REUSE
 * (its grid stays fine enough there: up to 9–18 % above the accountant at n / 256). One whose
 * repeated steps are Gaussian or discrete Gaussian (the fixed part may have point masses)
 * serves every count up to its own: within 0.6 % of the accountant from n down to 1, for n up
 * to 10⁶, measured; 0.75 % tested (plannerAccounting.test.ts).
 */
const REUSE = 16;
/**
 * Counts up to this go to the accountant itself when an event has point masses (ε-DP steps,
 * Laplace, (ε, δ) parts): few compositions of those are where a grid refined for many is
 * least precise (up to 11 % above the accountant at n = 2), and the direct query is cheap.
 * Gaussian and discrete Gaussian steps come within 1 % of it from a composition at every
 * count (plannerAccounting.test.ts; ≤ 0.5 % seen alone, 0.8 % behind a Gaussian fixed part),
 * so those are gridded down to n = 1.
 */
const DIRECT_BELOW = 8;
/** Curves and searches: certified upper bounds refined to 1 %, as `searchEpsilon`. */
const RELATIVE_GAP = 1e-2;

export interface CountedEpsilonSpec {
  fixed: PrivacyEvent | null;
  repeated: PrivacyEvent;
  /** The δ that will be asked (each refined to 1 %); smaller δ go to the accountant. */
  deltas: readonly number[];
  /** Largest count that will be asked. */
  limit: number;
}

export class CountedEpsilon {
  private readonly compositions: RepeatedComposition[] = [];
  /** True once the events turned out to need the accountant itself. */
  private direct = false;
  /** Answers given, by count and δ. */
  private readonly answered = new Map<string, number>();

  /** Counts answered by the accountant itself (DIRECT_BELOW where an event has point masses). */
  private readonly directBelow: number;
  /** A composition refined for n serves down to n / reuse. */
  private readonly reuse: number;

  constructor(private readonly spec: CountedEpsilonSpec) {
    this.directBelow = [spec.fixed, spec.repeated].some((e) => e !== null && hasPointMasses(e)) ? DIRECT_BELOW : 0;
    this.reuse = hasPointMasses(spec.repeated) ? REUSE : Infinity;
  }

  /**
   * ε upper bound of fixed ∘ repeated^n at δ. A new composition is refined for `grow` × n
   * (searches go on past the count they ask; a batch knows its largest).
   */
  at(n: number, delta: number, grow = GROW): number {
    if (n === 0 && this.spec.fixed === null) return 0;
    const key = `${n} ${delta}`;
    let epsilon = this.answered.get(key);
    if (epsilon === undefined) {
      const gridded = (n > this.directBelow || n === this.spec.limit) && delta >= Math.min(...this.spec.deltas);
      const composition = gridded ? this.compositionFor(n, grow) : null;
      epsilon = composition ? composition.epsilonUpper(n, delta) : Infinity;
      if (!(epsilon < Infinity)) epsilon = searchEpsilon(this.eventAt(n), delta);
      this.answered.set(key, epsilon);
    }
    return epsilon;
  }

  /** The largest count a composition already built that serves n also serves (no new discretisation), else n. */
  reach(n: number): number {
    const counts = this.fitting(n).map((c) => Math.min(this.spec.limit, c.maxCount));
    return Math.max(n, ...counts);
  }

  /** ε at each count (the largest first, so that the smaller ones reuse its composition). */
  many(counts: readonly number[], delta: number): number[] {
    const values = new Map<number, number>();
    for (const n of [...new Set(counts)].sort((a, b) => b - a)) values.set(n, this.at(n, delta, 1));
    return counts.map((n) => values.get(n)!);
  }

  /** The event whose ε `at(n, …)` bounds. */
  eventAt(n: number): PrivacyEvent {
    const { fixed, repeated } = this.spec;
    if (n === 0) return fixed!;
    const repeatedN = n === 1 ? repeated : composed(repeated, n);
    return fixed ? sequence([fixed, repeatedN]) : repeatedN;
  }

  /** The compositions built that serve n. */
  private fitting(n: number): RepeatedComposition[] {
    return this.compositions.filter((c) => c.maxCount >= n && c.maxCount <= this.reuse * Math.max(n, 1));
  }

  private compositionFor(n: number, grow: number): RepeatedComposition | null {
    if (this.direct) return null;
    const fitting = this.fitting(n);
    if (fitting.length > 0) return fitting.reduce((a, b) => (a.maxCount <= b.maxCount ? a : b));
    try {
      const composition = createRepeatedComposition({
        fixed: this.spec.fixed,
        repeated: this.spec.repeated,
        maxCount: Math.max(1, n, Math.min(this.spec.limit, Math.ceil(grow * n))),
        deltas: this.spec.deltas,
        relativeGap: RELATIVE_GAP,
      });
      if (!composition) {
        this.direct = true;
        return null;
      }
      this.compositions.push(composition);
      return composition;
    } catch (error) {
      if (!(error instanceof UnsupportedByPldError)) throw error;
      this.direct = true;
      return null;
    }
  }
}

/** Whether `event` has a step whose privacy loss has point masses: ε-DP, Laplace or (ε, δ). */
function hasPointMasses(event: PrivacyEvent): boolean {
  if (event.kind === 'pure' || event.kind === 'laplace' || event.kind === 'approx') return true;
  if ('event' in event) return hasPointMasses(event.event);
  if ('events' in event) return event.events.some(hasPointMasses);
  return false;
}
