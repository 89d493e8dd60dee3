/**
 * The one-run privacy audit bound of Steinke, Nasr & Jagielski, "Privacy auditing with one
 * (1) training run" (NeurIPS 2023, arXiv 2305.08846).
 *
 * m canaries are each included independently with probability ½; the auditor guesses
 * "in" or "out" for r of them (abstaining on the rest) and v guesses are right.
 * Theorem 3.1 (ε-DP) and its approximate-DP form Theorem 5.2 ((ε, δ)-DP): with
 * q = e^ε / (1 + e^ε) and B ~ Binomial(r, q),
 *
 *   P[v or more correct] ≤ P[B ≥ v] + 2mδ · max_{i = 1…v} P[v − i ≤ B < v] / i.
 *
 * That right-hand side is the p-value of the hypothesis "the mechanism is (ε, δ)-DP";
 * the empirical lower bound at confidence 1 − β is the largest ε the observed count
 * rejects (p-value < β), found by bisection: the hypothesis gets weaker as ε grows.
 */

/** log C(r, k) for k = 0…r. */
function logBinomialCoefficients(r: number): Float64Array {
  const out = new Float64Array(r + 1);
  for (let k = 1; k <= r; k++) out[k] = out[k - 1] + Math.log(r - k + 1) - Math.log(k);
  return out;
}

/** P[B = k] for B ~ Binomial(r, q), k = 0…r. */
function binomialPmf(r: number, q: number): Float64Array {
  const logC = logBinomialCoefficients(r);
  const logQ = Math.log(q);
  const log1mQ = Math.log1p(-q);
  return logC.map((c, k) => Math.exp(c + k * logQ + (r - k) * log1mQ));
}

export interface OneRunCounts {
  /** Canaries (each included with probability ½). */
  m: number;
  /** Guesses made (not abstentions). */
  r: number;
  /** Correct guesses. */
  v: number;
}

function check({ m, r, v }: OneRunCounts): void {
  if (![m, r, v].every(Number.isInteger) || v < 0 || v > r || r > m) throw new Error(`need integers 0 ≤ v ≤ r ≤ m (got m=${m}, r=${r}, v=${v})`);
}

/** The p-value of "(ε, δ)-DP" given the counts (Theorem 5.2; Theorem 3.1 when δ = 0). */
export function oneRunPValue(counts: OneRunCounts, epsilon: number, delta: number): number {
  check(counts);
  const { m, r, v } = counts;
  if (v === 0) return 1;
  const q = 1 / (1 + Math.exp(-epsilon));
  const pmf = binomialPmf(r, q);
  let tail = 0;
  for (let k = v; k <= r; k++) tail += pmf[k];
  let alpha = 0;
  let band = 0; // P[v − i ≤ B < v]
  for (let i = 1; i <= v; i++) {
    band += pmf[v - i];
    alpha = Math.max(alpha, band / i);
  }
  return Math.min(1, tail + 2 * m * delta * alpha);
}

export interface OneRunBound {
  /** The empirical ε lower bound (0 when the counts reject nothing). */
  epsilon: number;
  confidence: number;
  delta: number;
}

/** Bisection tolerance on ε. */
export const BOUND_TOLERANCE = 1e-6;
const EPSILON_CEILING = 100;

/**
 * The largest ε whose (ε, δ)-DP hypothesis the counts reject at level β = 1 − confidence
 * (rounded down to BOUND_TOLERANCE, so it never overstates).
 */
export function oneRunEpsilonLowerBound(counts: OneRunCounts, delta: number, confidence = 0.95): OneRunBound {
  const beta = 1 - confidence;
  const rejects = (epsilon: number) => oneRunPValue(counts, epsilon, delta) < beta;
  if (!rejects(0)) return { epsilon: 0, confidence, delta };
  let lo = 0;
  let hi = 1;
  while (rejects(hi) && hi < EPSILON_CEILING) [lo, hi] = [hi, hi * 2];
  while (hi - lo > BOUND_TOLERANCE) {
    const mid = (lo + hi) / 2;
    if (rejects(mid)) lo = mid;
    else hi = mid;
  }
  return { epsilon: lo, confidence, delta };
}
