/**
 * Joint exponential mechanism for ordered top-k (Gillenwater, Joseph, Medina & Ribero Diaz,
 * "A Joint Exponential Mechanism for Differentially Private Top-k", ICML 2022).
 *
 * Output space: all length-k sequences s of distinct items. With counts sorted so that
 * c₍₁₎ ≥ … ≥ c₍d₎, the utility is u(s) = −maxᵢ (c₍ᵢ₎ − c_{sᵢ}); the mechanism samples s with
 * probability ∝ exp(ε·u(s)/(2Δ)) — an exponential mechanism, hence ε-DP.
 *
 * Neighbouring: add/remove one unit, where one unit changes each count by at most Δ, all in
 * the same direction (a unit adds 0 or 1 to each item it touches). Then every order statistic
 * and every count moves by ≤ Δ in that direction, so u has sensitivity Δ (paper §3).
 * Under replace-one, pass sensitivity 2Δ. The item universe must be data-independent.
 * Event: pure(ε).
 *
 * Sampling in O(dk log k) time and O(dk) space (paper §3, Lemma 3.7): every sequence has a
 * designated "worst" (row i, item j) pair — the largest of its k pairs in the total order
 * (error c₍ᵢ₎ − c₍ⱼ₎ ascending, then row descending, then item ascending). The sequences
 * whose designated pair is (i*, j*) number ∏_{i≠i*} (mᵢ − (i−1)), where mᵢ counts row i's
 * pairs that precede (i*, j*) (a prefix of the sorted items; prefixes are nested in i).
 * A k-way merge of the k sorted rows visits pairs in order while maintaining that product
 * in log space; one pair is drawn with weight count·exp(rate·u), then a uniform sequence
 * with that designated pair.
 */
import type { Neighbouring } from '../accounting/events';
import { cryptoRandom } from '../random/cryptoRandom';
import type { RandomSource } from '../random/randomSource';
import { uniformInt } from '../random/uniform';
import { requireFinite, requirePositive, sortIndicesDescending, type MechanismResult } from './types';

export interface JointExponentialParams {
  epsilon: number;
  /** Max change of any count per unit (same direction for all counts); default 1. */
  sensitivity?: number;
  neighbouring?: Neighbouring;
}

/** Ordered top-k item indices (best first), sampled by the joint exponential mechanism. */
export function jointExponentialTopK(
  counts: ArrayLike<number>,
  k: number,
  params: JointExponentialParams,
  random: RandomSource = cryptoRandom,
): MechanismResult<number[]> {
  requirePositive('epsilon', params.epsilon);
  const sensitivity = params.sensitivity ?? 1;
  requirePositive('sensitivity', sensitivity);
  requireFinite('counts', counts);
  const d = counts.length;
  if (!Number.isInteger(k) || k < 1 || k > d) throw new Error(`jointExponentialTopK: k must be an integer in [1, ${d}], got ${k}`);
  if (d * k > 2 ** 31 - 1) throw new Error('jointExponentialTopK: d·k too large');
  const rate = params.epsilon / (2 * sensitivity);

  const order = sortIndicesDescending(counts);
  const c = new Float64Array(d);
  for (let j = 0; j < d; j++) c[j] = counts[order[j]];

  const { pairRow, pairItem } = sampleDesignatedPair(c, k, rate, random);
  const sorted = sequenceWithDesignatedPair(c, k, pairRow, pairItem, random);
  return {
    output: sorted.map((j) => order[j]),
    event: { kind: 'pure', epsilon: params.epsilon, neighbouring: params.neighbouring ?? 'add-remove' },
  };
}

/**
 * Merge the k rows in the total order; draw the designated pair with weight count·e^{rate·u}.
 * Speed (same distribution, bit for bit): a row stays at the top of the heap while its next
 * pair still precedes every other row's head (no heap work inside such a run), and the merge
 * stops once no later pair can have a weight that survives exp() — errors only grow along the
 * merge and log count ≤ k·log d, so every later weight underflows to exactly 0.
 */
function sampleDesignatedPair(c: Float64Array, k: number, rate: number, random: RandomSource): { pairRow: number; pairItem: number } {
  const d = c.length;
  const logInt = new Float64Array(d + 1);
  for (let n = 1; n <= d; n++) logInt[n] = Math.log(n);
  const logCountBound = k * logInt[d];

  const ptr = new Int32Array(k); // ptr[i] = mᵢ, row i's pairs already visited
  const headError = new Float64Array(k); // c[i] − c[ptr[i]]
  for (let i = 0; i < k; i++) headError[i] = c[i] - c[0];
  const heap = new Int32Array(k);
  for (let i = 0; i < k; i++) heap[i] = i;
  let heapSize = k;
  // Row a's head precedes row b's head: error ascending, then row descending.
  const before = (a: number, b: number): boolean => headError[a] < headError[b] || (headError[a] === headError[b] && a > b);
  const siftDown = (at: number): void => {
    const row = heap[at];
    for (;;) {
      const left = 2 * at + 1;
      if (left >= heapSize) break;
      const right = left + 1;
      const child = right < heapSize && before(heap[right], heap[left]) ? right : left;
      if (!before(heap[child], row)) break;
      heap[at] = heap[child];
      at = child;
    }
    heap[at] = row;
  };
  for (let i = (heapSize >> 1) - 1; i >= 0; i--) siftDown(i);

  // Factor of row i: mᵢ − i (0-based rows); a factor ≤ 0 makes the product zero.
  let zeros = k; // rows whose factor is ≤ 0 (initially all: mᵢ = 0)
  let logSum = 0; // Σ log factor over rows with a positive factor

  const weights = new Float64Array(d * k);
  const ids = new Int32Array(d * k);
  let stored = 0;
  let maxWeight = -Infinity;
  merge: while (heapSize > 0) {
    const i = heap[0];
    // The runner-up: the better of the root's children.
    const second = heapSize < 2 ? -1 : heapSize < 3 || before(heap[1], heap[2]) ? heap[1] : heap[2];
    for (;;) {
      const j = ptr[i];
      const error = headError[i];
      if (logCountBound - rate * error < maxWeight - 746) break merge; // exp(w − max) = 0 from here on
      const factor = j - i;
      const zerosOthers = factor <= 0 ? zeros - 1 : zeros;
      if (zerosOthers === 0) {
        const w = (factor > 0 ? logSum - logInt[factor] : logSum) - rate * error;
        weights[stored] = w;
        ids[stored++] = i * d + j;
        if (w > maxWeight) maxWeight = w;
      }
      // Visit the pair: row i's prefix grows to j + 1.
      const next = factor + 1;
      if (factor > 0) logSum += logInt[next] - logInt[factor];
      else if (next > 0) {
        zeros--;
        logSum += logInt[next];
      }
      ptr[i] = j + 1;
      if (j + 1 === d) {
        heap[0] = heap[--heapSize];
        break;
      }
      headError[i] = c[i] - c[j + 1];
      if (second >= 0 && !before(i, second)) break;
    }
    if (heapSize > 0) siftDown(0);
  }
  if (stored === 0) throw new Error('jointExponentialTopK: no sequence found (internal error)');

  let total = 0;
  for (let t = 0; t < stored; t++) total += weights[t] = Math.exp(weights[t] - maxWeight);
  let target = random.nextFloat() * total;
  let chosen = stored - 1;
  for (let t = 0; t < stored; t++) {
    target -= weights[t];
    if (target < 0) {
      chosen = t;
      break;
    }
  }
  // Guard against rounding at the very end: never pick a zero-weight pair.
  while (weights[chosen] === 0 && chosen > 0) chosen--;
  const id = ids[chosen];
  return { pairRow: Math.floor(id / d), pairItem: id % d };
}

/** Number of row-i pairs that precede (rowStar, itemStar) in the total order. */
function prefixLength(c: Float64Array, i: number, rowStar: number, itemStar: number): number {
  if (i === rowStar) return itemStar;
  const e = c[rowStar] - c[itemStar];
  const inclusive = i > rowStar; // equal errors: a higher row comes first
  let lo = 0;
  let hi = c.length; // first j whose pair does not precede
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const err = c[i] - c[mid];
    if (err < e || (inclusive && err === e)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A uniform sequence (positions into the sorted items) whose designated pair is given. */
function sequenceWithDesignatedPair(c: Float64Array, k: number, rowStar: number, itemStar: number, random: RandomSource): number[] {
  const sequence = new Array<number>(k);
  sequence[rowStar] = itemStar;
  const used: number[] = [itemStar]; // kept sorted ascending
  for (let i = 0; i < k; i++) {
    if (i === rowStar) continue;
    const m = prefixLength(c, i, rowStar, itemStar);
    // Items already used that lie in this row's prefix (all of them, by nesting, except
    // itemStar for rows above rowStar).
    let inPrefix = 0;
    for (const u of used) if (u < m) inPrefix++;
    const available = m - inPrefix;
    if (available <= 0) throw new Error('jointExponentialTopK: empty choice set (internal error)');
    // The r-th unused index in [0, m).
    let index = uniformInt(random, available);
    for (const u of used) {
      if (u <= index) index++;
      else break;
    }
    sequence[i] = index;
    used.splice(sortedInsertPosition(used, index), 0, index);
  }
  return sequence;
}

function sortedInsertPosition(sorted: number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The utility u(s) = −maxᵢ (c₍ᵢ₎ − c_{sᵢ}) of a sequence of item indices (for tests and reports). */
export function jointUtility(counts: ArrayLike<number>, sequence: readonly number[]): number {
  const sorted = Array.from(counts).sort((a, b) => b - a);
  let worst = -Infinity;
  sequence.forEach((item, i) => (worst = Math.max(worst, sorted[i] - counts[item])));
  return -worst;
}
