/**
 * Whether a recorded ε upper bound covers the ε recomputed now from its event, to `tolerance`
 * relative: a recorded bound at or above the recomputed one does — the accountant may have
 * become tighter since (a closed form, a finer grid), and a larger upper bound is still a valid
 * one; only a recorded ε below what its event accounts to understates the loss. Used by
 * `ledger verify` (the recorded total spend) and the certificate checks (the stated ε).
 */
export function coversRecomputed(recorded: number, recomputed: number, tolerance = 1e-6): boolean {
  return recorded >= recomputed || recorded >= recomputed - tolerance * Math.max(1, recomputed);
}
