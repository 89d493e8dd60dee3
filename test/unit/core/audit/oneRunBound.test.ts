import { describe, expect, it } from 'vitest';
import { canaryBound, guessSizes } from '../../../../core/audit/canaries';
import { BOUND_TOLERANCE, oneRunEpsilonLowerBound, oneRunPValue } from '../../../../core/audit/oneRunBound';
import { seededRandom } from '../../../../core/random/seededRandom';
import { fairCoin, uniformOpen } from '../../../../core/random/uniform';

describe('one-run bound (Steinke, Nasr & Jagielski 2023, Thm 3.1 / 5.2)', () => {
  it('all r guesses right, δ = 0: closed form ε = logit(β^(1/r))', () => {
    // P[Binomial(r, q) ≥ r] = q^r = β  ⇒  q = β^(1/r), ε = ln(q / (1 − q)).
    for (const r of [5, 10, 40]) {
      const q = 0.05 ** (1 / r);
      const expected = Math.log(q / (1 - q));
      const { epsilon } = oneRunEpsilonLowerBound({ m: 100, r, v: r }, 0);
      expect(epsilon).toBeLessThanOrEqual(expected);
      expect(epsilon).toBeGreaterThan(expected - 2 * BOUND_TOLERANCE);
    }
  });

  // Independent values: the theorem's p-value written again in Python with scipy.stats.binom
  // and solved with scipy.optimize.brentq (xtol 1e-12), β = 0.05. Tolerance 1e-5 on ε
  // (our bisection stops at 1e-6 and rounds down).
  it.each([
    [100, 10, 10, 0, 1.0518732332317096],
    [1000, 100, 90, 0, 1.6308231927409735],
    [1000, 200, 150, 1e-5, 0.8199729121700395],
    [64, 32, 30, 1e-5, 1.4889613387563545],
    [1000, 200, 150, 1e-3, 0.4544009361655403],
  ])('m=%i r=%i v=%i δ=%f: ε ≥ %f as scipy finds it', (m, r, v, delta, expected) => {
    const { epsilon } = oneRunEpsilonLowerBound({ m, r, v }, delta);
    expect(Math.abs(epsilon - expected)).toBeLessThan(1e-5);
    expect(epsilon).toBeLessThanOrEqual(expected + 1e-9);
  });

  it('p-values match scipy at ε = 1', () => {
    expect(oneRunPValue({ m: 100, r: 10, v: 10 }, 1, 0)).toBeCloseTo(0.04360354279412869, 12);
    expect(oneRunPValue({ m: 1000, r: 200, v: 150 }, 1, 1e-5)).toBeCloseTo(0.3044225124350048, 10);
  });

  it('chance-level counts give no bound; bad counts are refused', () => {
    expect(oneRunEpsilonLowerBound({ m: 100, r: 50, v: 25 }, 0).epsilon).toBe(0);
    expect(() => oneRunPValue({ m: 10, r: 11, v: 1 }, 1, 0)).toThrow();
  });

  it('is conservative for ε-randomised response with known ε (seeded simulation)', () => {
    // Each canary's score is its inclusion bit flipped with probability 1/(1+e^ε) plus a tiny
    // tie-breaker: exactly ε-DP per canary. At 95 % confidence the bound may exceed ε in at
    // most ~5 % of runs; we allow 10 % of 200 runs (≥ 3 binomial s.d. above 5 %).
    const random = seededRandom('audit.one-run');
    const epsilon = 2;
    const flip = 1 / (1 + Math.exp(epsilon));
    let exceeded = 0;
    let found = 0;
    for (let t = 0; t < 200; t++) {
      const included = Array.from({ length: 256 }, () => fairCoin(random));
      const scores = included.map((b) => ((uniformOpen(random) < flip ? !b : b) ? 1 : 0) + 1e-3 * uniformOpen(random));
      const bound = canaryBound(scores, included, 0).bound.epsilon;
      if (bound > epsilon) exceeded++;
      if (bound > 0.5) found++;
    }
    expect(exceeded / 200).toBeLessThanOrEqual(0.1);
    expect(found).toBeGreaterThan(100); // and it is not vacuous: it finds real leakage
  });

  it('guesses k ∈ {m/16, m/8, m/4, m/2} per side', () => {
    expect(guessSizes(64)).toEqual([4, 8, 16, 32]);
    expect(guessSizes(2)).toEqual([1]);
  });
});
