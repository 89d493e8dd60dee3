/**
 * Joint exponential mechanism for ordered top-k: the sampler must reproduce the exponential
 * mechanism over ALL length-k sequences, P[s] ∝ exp(ε·u(s)/(2Δ)), which we enumerate by brute
 * force for small d and compare by chi-square (p = 0.001, fixed seeds). Privacy then follows
 * from the exact distribution, which we also check directly on neighbouring count vectors.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jointExponentialTopK, jointUtility } from '../../../../core/mechanisms/jointExponentialMechanism';
import { seededRandom } from '../../../../core/random/seededRandom';
import { chiSquarePasses, empiricalEpsilon } from '../random/stats';

function sequences(d: number, k: number): number[][] {
  const out: number[][] = [];
  const go = (prefix: number[]): void => {
    if (prefix.length === k) {
      out.push(prefix);
      return;
    }
    for (let j = 0; j < d; j++) if (!prefix.includes(j)) go([...prefix, j]);
  };
  go([]);
  return out;
}

function bruteForce(counts: number[], k: number, epsilon: number, sensitivity = 1): Map<string, number> {
  const all = sequences(counts.length, k);
  const w = all.map((s) => Math.exp((epsilon * jointUtility(counts, s)) / (2 * sensitivity)));
  const z = w.reduce((a, b) => a + b, 0);
  return new Map(all.map((s, i) => [s.join(','), w[i] / z]));
}

function fitsBruteForce(counts: number[], k: number, epsilon: number, seed: string, n = 60_000): { pass: boolean; stat: number; critical: number } {
  const exact = bruteForce(counts, k, epsilon);
  const keys = [...exact.keys()];
  const index = new Map(keys.map((key, i) => [key, i]));
  const observed = new Array(keys.length).fill(0);
  const r = seededRandom(seed);
  for (let i = 0; i < n; i++) observed[index.get(jointExponentialTopK(counts, k, { epsilon }, r).output.join(','))!]++;
  return chiSquarePasses(observed, keys.map((key) => exact.get(key)!));
}

describe('jointExponentialTopK: exact distribution', () => {
  const cases: [string, number[], number, number][] = [
    ['distinct counts, k = 2', [9, 7, 6, 3, 0], 2, 1],
    ['ties in the counts, k = 3', [4, 4, 2, 2, 2, 0], 3, 1.5],
    ['non-integer counts and ties across rows, k = 3', [2.5, 2.5, 2.5, 1, 0.5], 3, 2],
    ['k = 1 reduces to the exponential mechanism', [3, 1, 1, 0], 1, 2],
    ['k = d (all permutations)', [5, 3, 2, 2], 4, 1],
    // Errors ≥ 998 give weights e^−998 that underflow: the sampler's early stop of the merge.
    ['items far behind are cut off exactly, k = 2', [1000, 999, 998, 997, 0, 0, 0], 2, 2],
  ];
  for (const [name, counts, k, epsilon] of cases) {
    it(`${name} (chi-square vs brute force)`, () => {
      const res = fitsBruteForce(counts, k, epsilon, name);
      expect(res.stat, JSON.stringify(res)).toBeLessThanOrEqual(res.critical);
    });
  }
});

describe('jointExponentialTopK: privacy', () => {
  it('exact output probabilities on neighbouring counts differ by at most e^ε (property)', () => {
    // Neighbour: one unit adds 1 to any subset of items (same direction), Δ = 1.
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 3, maxLength: 5 }),
        fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }),
        fc.integer({ min: 1, max: 3 }),
        fc.double({ min: 0.1, max: 3, noNaN: true }),
        (counts, touched, kRaw, epsilon) => {
          const k = Math.min(kRaw, counts.length);
          const neighbour = counts.map((c, i) => c + (touched[i] ? 1 : 0));
          const p = bruteForce(counts, k, epsilon);
          const q = bruteForce(neighbour, k, epsilon);
          for (const [key, pv] of p) if (Math.abs(Math.log(pv / q.get(key)!)) > epsilon + 1e-9) return false;
          return true;
        },
      ),
      { numRuns: 60 },
    );
  });

  it('empirical ε on neighbouring counts stays within the accounted ε', () => {
    const counts = [6, 5, 5, 1];
    const neighbour = [6, 6, 5, 2]; // one unit touched items 1 and 3
    const epsilon = 1.5;
    const r = seededRandom('jem-privacy');
    const n = 60_000;
    const event = (s: number[]): boolean => s[0] === 1 && s[1] === 0; // item 1 ranked first
    let hits = 0;
    let hitsPrime = 0;
    for (let i = 0; i < n; i++) {
      if (event(jointExponentialTopK(neighbour, 2, { epsilon }, r).output)) hits++;
      if (event(jointExponentialTopK(counts, 2, { epsilon }, r).output)) hitsPrime++;
    }
    expect(empiricalEpsilon(hits, n, hitsPrime, n).lower).toBeLessThanOrEqual(epsilon);
    expect(jointExponentialTopK(counts, 2, { epsilon }, r).event).toEqual({ kind: 'pure', epsilon, neighbouring: 'add-remove' });
  });
});

describe('jointExponentialTopK: validity and utility', () => {
  it('returns k distinct valid item indices (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 1000 }), { minLength: 1, maxLength: 200 }),
        fc.integer({ min: 1, max: 40 }),
        fc.integer(),
        (counts, kRaw, seed) => {
          const k = Math.min(kRaw, counts.length);
          const out = jointExponentialTopK(counts, k, { epsilon: 1 }, seededRandom(seed)).output;
          return out.length === k && new Set(out).size === k && out.every((i) => Number.isInteger(i) && i >= 0 && i < counts.length);
        },
      ),
      { numRuns: 80 },
    );
  });

  it('with a large ε it returns the exact ordered top-k', () => {
    const r = seededRandom('jem-exact');
    const counts = Array.from({ length: 500 }, (_, i) => ((i * 7919) % 500) * 10); // distinct, gaps of 10
    const truth = Array.from(counts.keys()).sort((a, b) => counts[b] - counts[a]).slice(0, 20);
    expect(jointExponentialTopK(counts, 20, { epsilon: 50 }, r).output).toEqual(truth);
  });

  it('favours high counts at moderate ε (d = 2000, k = 10)', () => {
    // Counts 2000 − rank. The typical worst error is ≈ (k−1)·2Δ/ε ≈ 36; the mass at rank ≥ 150
    // is below e^−14 of the peak (count of sequences grows like m^k, weight falls like e^{−εm/2}).
    const r = seededRandom('jem-utility');
    const counts = Array.from({ length: 2000 }, (_, i) => 2000 - i);
    for (let run = 0; run < 10; run++) {
      const out = jointExponentialTopK(counts, 10, { epsilon: 0.5 }, r).output;
      expect(Math.max(...out)).toBeLessThan(150);
    }
  });

  it('runs on d = 5,000, k = 30 (the benchmark measures d = 50,000)', () => {
    const r = seededRandom('jem-large');
    const counts = Array.from({ length: 5000 }, (_, i) => Math.floor(5000 * Math.exp(-i / 300)));
    const out = jointExponentialTopK(counts, 30, { epsilon: 1 }, r).output;
    expect(new Set(out).size).toBe(30);
  });

  it('validates k and ε', () => {
    const r = seededRandom(1);
    expect(() => jointExponentialTopK([1, 2], 3, { epsilon: 1 }, r)).toThrow();
    expect(() => jointExponentialTopK([1, 2], 0, { epsilon: 1 }, r)).toThrow();
    expect(() => jointExponentialTopK([1, 2], 1, { epsilon: -1 }, r)).toThrow();
  });
});
