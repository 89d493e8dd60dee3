/**
 * erfc / erfcx / log erfc / Φ / log Φ against mpmath (40 digits): ~1e-15 relative in the
 * tails, and finite logarithms far beyond float64 underflow.
 */
import { describe, expect, it } from 'vitest';
import { erfc, erfcx, logErfc, logNormalCdf, normalCdf } from '../../../../core/math/normal';

const rel = (a: number, b: number): number => (a === b ? 0 : Math.abs(a - b) / Math.abs(b));

// [x, erfc(x), e^{x²}·erfc(x), log erfc(x)], mpmath 1.3 at 40 digits (NaN: below float64 range).
const ERFC: [number, number, number, number][] = [
  [-10, 2.0, 5.376234283632271e43, 0.6931471805599453],
  [-3, 1.9999779095030015, 16205.988853999586, 0.6931361352504468],
  [-0.5, 1.5204998778130465, 1.952360489182557, 0.41903914777555956],
  [-0.001, 1.0011283787909693, 1.0011293799198486, 0.0011277426501148766],
  [0, 1.0, 1.0, 0.0],
  [0.3, 0.6713732405408726, 0.7345993345676551, -0.39843005144008525],
  [0.46875, 0.507386526782062, 0.6320696892495561, -0.6784821856143961],
  [0.5, 0.4795001221869535, 0.6156903441929259, -0.7350111298370844],
  [1, 0.15729920705028513, 0.427583576155807, -1.8496055099332482],
  [2, 0.004677734981047266, 0.25539567631050575, -5.364941264616638],
  [3.9, 3.4792248597231765e-8, 0.14031418160068973, -17.1738712164354],
  [4.1, 6.700027654084918e-9, 0.13383411641865198, -18.821154183082648],
  [6, 2.1519736712498913e-17, 0.09277656780053835, -38.37756117322339],
  [10, 2.088487583762545e-45, 0.05614099274382259, -102.87988902484489],
  [20, 5.395865611607901e-176, 0.02817434874105132, -403.56934333410425],
  [26, 5.663192408856143e-296, 0.021683584850562907, -679.8311997631943],
  [50, NaN, 0.011281536265323773, -2504.4845878484516],
  [1e4, NaN, 5.641895807268084e-5, -100000009.78270532],
];

// [x, Φ(x), log Φ(x)]
const PHI: [number, number, number][] = [
  [-40, NaN, -804.6084420137538],
  [-20, 2.7536241186062337e-89, -203.91715537109727],
  [-8, 6.220960574271784e-16, -35.01343715991455],
  [-1, 0.15865525393145705, -1.8410216450092636],
  [0, 0.5, -0.6931471805599453],
  [1, 0.8413447460685429, -0.17275377902344988],
  [5, 0.9999997133484281, -2.866516129637636e-7],
  [9, 1.0, -1.1285884059538405e-19],
  [20, 1.0, -2.7536241186062337e-89],
];

describe('erfc, erfcx, logErfc', () => {
  it('match mpmath within 2e-15 relative', () => {
    for (const [x, e, ex, le] of ERFC) {
      if (!Number.isNaN(e)) expect(rel(erfc(x), e), `erfc(${x})`).toBeLessThan(2e-15);
      expect(rel(erfcx(x), ex), `erfcx(${x})`).toBeLessThan(2e-15);
      if (le !== 0) expect(rel(logErfc(x), le), `logErfc(${x})`).toBeLessThan(2e-15);
    }
    expect(Math.abs(logErfc(0))).toBe(0);
  });

  it('satisfy erfc(x) + erfc(−x) = 2 and have the right limits', () => {
    for (const x of [0.1, 0.7, 2.5, 5]) expect(erfc(x) + erfc(-x)).toBeCloseTo(2, 15);
    expect(erfc(30)).toBe(0);
    expect(erfc(-30)).toBe(2);
    expect(logErfc(Infinity)).toBe(-Infinity);
    expect(Number.isNaN(erfc(NaN))).toBe(true);
  });
});

describe('normalCdf, logNormalCdf', () => {
  it('match mpmath within 2e-15 relative, with no underflow in log Φ', () => {
    for (const [x, p, lp] of PHI) {
      if (!Number.isNaN(p)) expect(rel(normalCdf(x), p), `Φ(${x})`).toBeLessThan(2e-15);
      expect(rel(logNormalCdf(x), lp), `log Φ(${x})`).toBeLessThan(2e-15);
    }
  });

  it('is symmetric: Φ(x) + Φ(−x) = 1', () => {
    for (const x of [0.2, 1.3, 3.7]) expect(normalCdf(x) + normalCdf(-x)).toBeCloseTo(1, 15);
  });
});
