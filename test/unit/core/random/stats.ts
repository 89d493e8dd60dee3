/**
 * Statistical helpers for the sampler and mechanism tests: Kolmogorov–Smirnov and chi-square
 * goodness of fit with critical values, normal CDF, Wilson confidence bounds, and an
 * empirical-ε estimate from event frequencies on neighbouring inputs.
 *
 * Every test using these runs on a FIXED seed (seededRandom), so outcomes are deterministic;
 * the critical values (p = 0.001 unless stated) say how unlikely a correct sampler would be
 * to fail for a fresh seed, i.e. how much evidence a failure is.
 */

/** Φ(x), standard normal CDF (erfc via Numerical Recipes' erfcc, |rel. error| < 1.2e−7). */
export function normalCdf(x: number): number {
  return 0.5 * erfc(-x / Math.SQRT2);
}

export function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? r : 2 - r;
}

/** KS statistic D = sup |F_n − F| of a sample against a continuous CDF. */
export function ksStatistic(samples: ArrayLike<number>, cdf: (x: number) => number): number {
  const sorted = Float64Array.from(samples).sort();
  const n = sorted.length;
  let d = 0;
  for (let i = 0; i < n; i++) {
    const f = cdf(sorted[i]);
    d = Math.max(d, (i + 1) / n - f, f - i / n);
  }
  return d;
}

/**
 * Asymptotic KS critical value at level alpha: sqrt(−ln(alpha/2)/2)/√n (Kolmogorov limit;
 * accurate to < 1% for n ≥ 1000). alpha = 0.001 → 1.9495/√n.
 */
export function ksCritical(n: number, alpha = 0.001): number {
  return Math.sqrt(-Math.log(alpha / 2) / 2) / Math.sqrt(n);
}

/** z quantiles used below: upper-tail p = 0.001 → 3.0902; p = 1e−6 → 4.7534. */
export const Z_001 = 3.0902;

/**
 * Chi-square critical value for `df` degrees of freedom at upper-tail probability p,
 * Wilson–Hilferty approximation (relative error < 1% for df ≥ 3 at p = 0.001).
 */
export function chiSquareCritical(df: number, z = Z_001): number {
  const a = 2 / (9 * df);
  return df * (1 - a + z * Math.sqrt(a)) ** 3;
}

/**
 * Pearson chi-square of observed counts against expected probabilities, merging adjacent
 * bins until each expected count is ≥ 5 (the usual validity rule). Returns the statistic
 * and the degrees of freedom (bins − 1).
 */
export function chiSquare(observed: ArrayLike<number>, probabilities: ArrayLike<number>): { stat: number; df: number } {
  let total = 0;
  for (let i = 0; i < observed.length; i++) total += observed[i];
  const bins: { o: number; e: number }[] = [];
  let o = 0;
  let e = 0;
  for (let i = 0; i < observed.length; i++) {
    o += observed[i];
    e += probabilities[i] * total;
    if (e >= 5) {
      bins.push({ o, e });
      o = 0;
      e = 0;
    }
  }
  if (bins.length === 0) throw new Error('chiSquare: not enough data');
  bins[bins.length - 1].o += o;
  bins[bins.length - 1].e += e;
  let stat = 0;
  for (const b of bins) stat += (b.o - b.e) ** 2 / b.e;
  return { stat, df: bins.length - 1 };
}

/** Asserts-friendly chi-square test: true when the fit is NOT rejected at the given z. */
export function chiSquarePasses(observed: ArrayLike<number>, probabilities: ArrayLike<number>, z = Z_001): { pass: boolean; stat: number; critical: number; df: number } {
  const { stat, df } = chiSquare(observed, probabilities);
  const critical = chiSquareCritical(Math.max(df, 1), z);
  return { pass: stat <= critical, stat, critical, df };
}

/** Wilson score interval for a binomial proportion (successes of n) at normal quantile z. */
export function wilson(successes: number, n: number, z = 4): { lower: number; upper: number } {
  const p = successes / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  return { lower: Math.max(0, centre - half), upper: Math.min(1, centre + half) };
}

/**
 * Empirical privacy check for one output event E on neighbours D, D′: with counts of E in
 * nD and nD′ runs, a lower confidence bound on the privacy loss
 *   ε̂_low = ln((p_D,low − δ) / p_D′,up)
 * (both Wilson bounds at z = 4, so together ≥ 1 − 1e−4 coverage). A correct (ε, δ)-DP
 * mechanism has ε̂_low ≤ ε except with that small probability; the point estimate shows how
 * tight the accounting is.
 */
export function empiricalEpsilon(hitsD: number, nD: number, hitsDPrime: number, nDPrime: number, delta = 0, z = 4): { lower: number; estimate: number } {
  const a = wilson(hitsD, nD, z);
  const b = wilson(hitsDPrime, nDPrime, z);
  const lower = a.lower - delta > 0 && b.upper > 0 ? Math.log((a.lower - delta) / b.upper) : -Infinity;
  const pa = hitsD / nD - delta;
  const estimate = pa > 0 && hitsDPrime > 0 ? Math.log(pa / (hitsDPrime / nDPrime)) : pa > 0 ? Infinity : -Infinity;
  return { lower, estimate };
}
