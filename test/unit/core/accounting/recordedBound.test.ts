/**
 * A recorded ε (a ledger's total spend, a certificate's stated ε) is checked against the ε
 * recomputed now: at or above it passes (the accountant may have become tighter since), below
 * it by more than the tolerance fails, and a finite record of an event that now has no finite
 * ε fails.
 */
import { describe, expect, it } from 'vitest';
import { coversRecomputed } from '../../../../core/accounting/recordedBound';

describe('coversRecomputed', () => {
  it('accepts a recorded ε equal to or above the recomputed one, within 1e-6 below it', () => {
    expect(coversRecomputed(2, 2)).toBe(true);
    expect(coversRecomputed(6.497385125560627, 6.497306)).toBe(true); // a grid bound recorded before a closed form
    expect(coversRecomputed(2 * (1 - 0.9e-6), 2)).toBe(true);
    expect(coversRecomputed(0.5 - 0.9e-6, 0.5)).toBe(true); // absolute 1e-6 below ε = 1
  });

  it('flags an understated ε and a finite record of an unbounded one', () => {
    expect(coversRecomputed(2 * (1 - 2e-6), 2)).toBe(false);
    expect(coversRecomputed(1.9, 2)).toBe(false);
    expect(coversRecomputed(5, Infinity)).toBe(false);
    expect(coversRecomputed(Infinity, Infinity)).toBe(true);
    expect(coversRecomputed(5, Number.NaN)).toBe(false);
  });
});
