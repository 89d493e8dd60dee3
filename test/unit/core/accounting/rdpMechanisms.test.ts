/**
 * RDP of the unsampled mechanisms: pure ε-DP / exponential mechanism (reference section
 * exponential_mechanism_rdp, Bun–Steinke bound = randomised-response RDP), Laplace (Mironov's
 * closed form against direct numerical integration), Gaussian.
 */
import { describe, expect, it } from 'vitest';
import { gaussianRdp, laplaceRdp, pureDpRdp } from '../../../../core/accounting/rdp';
import { num, relativeError, vectors } from './rdpVectors';

describe('pureDpRdp (exponential mechanism, any ε-DP mechanism)', () => {
  it('matches the exact Bun–Steinke bound at every reference (ε, α) within 1e-12 relative', () => {
    const rows = vectors.exponential_mechanism_rdp.rdp;
    expect(rows.length).toBe(36);
    for (const row of rows) {
      const value = pureDpRdp(row.order, row.eps);
      expect(relativeError(value, num(row.rdp_bound_min)), `ε=${row.eps} α=${row.order}`).toBeLessThan(1e-12);
      expect(relativeError(value, num(row.randomized_response_rdp_closed_form))).toBeLessThan(1e-12);
    }
  });

  it('is accurate for tiny ε near α = 1 (no cancellation) and tends to ε at large α', () => {
    // Series: RR RDP = αε²/2 − α(α−1)·… ; for ε = 1e-6 it equals αε²/2 to ~1e-12 relative.
    expect(relativeError(pureDpRdp(1.05, 1e-6), (1.05 * 1e-12) / 2)).toBeLessThan(1e-9);
    expect(pureDpRdp(2048, 3)).toBeLessThanOrEqual(3);
    expect(pureDpRdp(2048, 3)).toBeGreaterThan(3 - Math.log(1 + Math.exp(3)) / 2047 - 1e-12);
    expect(pureDpRdp(4, 0)).toBe(0);
  });
});

describe('laplaceRdp', () => {
  /** D_α(Lap(0,b) ‖ Lap(Δ,b)) by the trapezoid rule on a fine grid (independent of the closed form). */
  function integrated(alpha: number, b: number, delta: number): number {
    const lo = -60 * b;
    const hi = delta + 60 * b;
    const n = 400_000;
    const h = (hi - lo) / n;
    let sum = 0;
    for (let i = 0; i <= n; i++) {
      const x = lo + i * h;
      const logP = -Math.abs(x) / b;
      const logQ = -Math.abs(x - delta) / b;
      const w = i === 0 || i === n ? 0.5 : 1;
      sum += w * Math.exp(alpha * logP + (1 - alpha) * logQ);
    }
    return Math.log((sum * h) / (2 * b)) / (alpha - 1);
  }

  it("matches Mironov's closed form (Table 2) against numerical integration", () => {
    for (const [alpha, b, delta] of [[2, 1, 1], [1.5, 0.5, 1], [8, 3, 2], [32, 10, 1]]) {
      expect(relativeError(laplaceRdp(alpha, b, delta), integrated(alpha, b, delta))).toBeLessThan(1e-6);
    }
  });

  it('lies below the pure ε = Δ/b bound and tends to it', () => {
    for (const alpha of [1.1, 2, 10, 100]) expect(laplaceRdp(alpha, 2, 1)).toBeLessThanOrEqual(pureDpRdp(alpha, 0.5) + 1e-15);
    expect(laplaceRdp(2048, 2, 1)).toBeGreaterThan(0.49);
  });
});

describe('gaussianRdp', () => {
  it('is αΔ²/(2σ²)', () => {
    expect(gaussianRdp(3, 2, 1)).toBeCloseTo(3 / 8, 15);
    expect(gaussianRdp(10, 2, Math.SQRT2)).toBeCloseTo(2.5, 15);
  });
});
