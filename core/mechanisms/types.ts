/**
 * Shared shapes for mechanisms: every mechanism returns its output together with the
 * privacy event it charges (ARCHITECTURE §3), and validates its parameters loudly.
 */
import type { Neighbouring, PrivacyEvent } from '../accounting/events';

export interface MechanismResult<T> {
  output: T;
  /** What this release costs; the caller reserves it in the ledger before releasing. */
  event: PrivacyEvent;
}

export type { Neighbouring, PrivacyEvent };

export function requirePositive(name: string, value: number): void {
  if (!(value > 0) || !Number.isFinite(value)) throw new Error(`${name} must be finite and > 0, got ${value}`);
}

export function requireProbability(name: string, value: number, { open = false } = {}): void {
  const ok = open ? value > 0 && value < 1 : value >= 0 && value <= 1;
  if (!ok || Number.isNaN(value)) throw new Error(`${name} must be in ${open ? '(0, 1)' : '[0, 1]'}, got ${value}`);
}

export function requireFinite(name: string, values: ArrayLike<number>): void {
  for (let i = 0; i < values.length; i++) {
    if (!Number.isFinite(values[i])) throw new Error(`${name}[${i}] is not finite`);
  }
}

/** Item indices sorted by value descending, ties broken by the lower index (data-independent). */
export function sortIndicesDescending(values: ArrayLike<number>): Int32Array {
  const order = new Int32Array(values.length);
  for (let i = 0; i < order.length; i++) order[i] = i;
  order.sort((a, b) => values[b] - values[a] || a - b);
  return order;
}
