/**
 * RDP of a Poisson(q)-subsampled mechanism of any kind (add/remove one unit), from the inner
 * mechanism's RDP curve ε(·) at integer orders — for sampled steps that are not Gaussians only
 * (e.g. a clustering's exponential-mechanism splits followed by Gaussian counts and sums on the
 * same sample, core/mechanisms/privateMondrian.ts).
 *
 * Zhu & Wang, "Poisson Subsampled Rényi Differential Privacy", ICML 2019, Theorem 6 (general
 * upper bound): for integer α ≥ 2,
 *   ε′(α) ≤ 1/(α−1) · log( (1−q)^{α−1}(αq − q + 1) + C(α,2) q² (1−q)^{α−2} e^{ε(2)}
 *                          + 3 Σ_{ℓ=3..α} C(α,ℓ) q^ℓ (1−q)^{α−ℓ} e^{(ℓ−1)ε(ℓ)} ).
 * Fractional α: Rényi divergence is non-decreasing in its order (van Erven & Harremoës 2014,
 * Thm 3), so ε′(α) ≤ ε′(⌈α⌉), and ε′(α) ≤ ε′(2) for α < 2. Subsampling never costs more than the
 * inner mechanism (joint quasi-convexity of the Rényi divergence), so the minimum with ε(α) is
 * kept too.
 */
import { logAddExp } from '../../math/logSpace';

/** Largest log-term for which the direct (cancellation-free) sum is evaluated in linear space. */
const LINEAR_LIMIT = 600;
const LOG_3 = Math.log(3);

/**
 * ε′(α) at each order, given the inner curve at integer orders: `innerAt(ℓ)` for every integer
 * 2 ≤ ℓ ≤ ⌈max order⌉ and `innerAtOrder(i)` = ε(orders[i]).
 */
export function poissonGeneralRdp(orders: readonly number[], q: number, innerAt: (integer: number) => number, innerAtOrder: (index: number) => number): number[] {
  if (!(q > 0 && q <= 1)) throw new RangeError(`poissonGeneralRdp: q must be in (0, 1], got ${q}`);
  const cache = new Map<number, number>();
  const integerBound = (alpha: number): number => {
    let value = cache.get(alpha);
    if (value === undefined) cache.set(alpha, (value = theorem6(alpha, q, innerAt)));
    return value;
  };
  return orders.map((alpha, i) => Math.min(innerAtOrder(i), integerBound(Math.max(2, Math.ceil(alpha)))));
}

/** Theorem 6 at integer α ≥ 2. */
function theorem6(alpha: number, q: number, innerAt: (integer: number) => number): number {
  if (q === 1) return innerAt(alpha);
  const logQ = Math.log(q);
  const log1mQ = Math.log1p(-q);
  // log of the first term, (1−q)^{α−1}(1 + (α−1)q).
  const logFirst = (alpha - 1) * log1mQ + Math.log1p((alpha - 1) * q);
  const logTerms: number[] = [];
  let logBinom = Math.log(alpha); // log C(α, 1)
  for (let l = 2; l <= alpha; l++) {
    logBinom += Math.log((alpha - l + 1) / l);
    const inner = innerAt(l);
    if (inner === Infinity) return Infinity;
    logTerms.push((l >= 3 ? LOG_3 : 0) + logBinom + l * logQ + (alpha - l) * log1mQ + (l - 1) * inner);
  }
  const largest = Math.max(...logTerms);
  let logTotal: number;
  if (largest < LINEAR_LIMIT) {
    // 1 + (first − 1) + Σ terms: the first term's deficit and the q² term cancel in linear space, exactly.
    let excess = Math.expm1(logFirst);
    for (const t of logTerms) excess += Math.exp(t);
    logTotal = Math.log1p(Math.max(0, excess));
  } else {
    logTotal = logTerms.reduce(logAddExp, logFirst);
  }
  return Math.max(0, logTotal / (alpha - 1));
}
