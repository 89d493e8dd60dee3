/**
 * RDP → (ε, δ)-DP, minimised over a grid of orders.
 *
 * Balle, Barthe, Gaboardi, Hsu & Sato, "Hypothesis Testing Interpretations and Rényi
 * Differential Privacy" (AISTATS 2020), Thm 21 (also Canonne, Kamath & Steinke 2020,
 * Prop. 12): an (α, r)-RDP mechanism is (ε, δ)-DP with
 *   ε = r + log((α−1)/α) − (log δ + log α)/(α−1),  equivalently
 *   log δ = (α−1)(r − ε + log(1 − 1/α)) − log α.
 * Also, δ(ε) ≤ δ(0) = TV ≤ √(1 − e^{−KL}) (Bretagnolle–Huber) with KL ≤ r at every α ≥ 1,
 * which gives ε = 0 when δ ≥ √(1 − e^{−r}).
 */
import { log1mExp } from '../../math/logSpace';

export interface Optimum {
  value: number;
  /** The order achieving it (NaN when no order gives a finite value). */
  order: number;
}

function checkLengths(orders: readonly number[], rdp: readonly number[]): void {
  if (orders.length !== rdp.length) throw new RangeError('RDP conversion: orders and rdp differ in length');
  for (const alpha of orders) if (!(alpha > 1)) throw new RangeError(`RDP conversion: orders must be > 1, got ${alpha}`);
}

/** Smallest ε over the orders such that the mechanism is (ε, δ)-DP (0 < δ ≤ 1). */
export function epsilonFromRdp(orders: readonly number[], rdp: readonly number[], delta: number): Optimum {
  checkLengths(orders, rdp);
  if (!(delta > 0 && delta <= 1)) throw new RangeError(`RDP conversion: δ must be in (0, 1], got ${delta}`);
  const logDelta = Math.log(delta);
  let best: Optimum = { value: Infinity, order: NaN };
  for (let i = 0; i < orders.length; i++) {
    const alpha = orders[i];
    const r = Math.max(0, rdp[i]);
    const epsilon =
      2 * logDelta >= log1mExp(-r) ? 0 : r + Math.log1p(-1 / alpha) - (logDelta + Math.log(alpha)) / (alpha - 1);
    if (epsilon < best.value) best = { value: epsilon, order: alpha };
  }
  return { value: Math.max(0, best.value), order: best.order };
}

/** Smallest δ over the orders such that the mechanism is (ε, δ)-DP (ε ≥ 0). */
export function deltaFromRdp(orders: readonly number[], rdp: readonly number[], epsilon: number): Optimum {
  checkLengths(orders, rdp);
  if (!(epsilon >= 0)) throw new RangeError(`RDP conversion: ε must be ≥ 0, got ${epsilon}`);
  let bestLog = Infinity;
  let bestOrder = NaN;
  for (let i = 0; i < orders.length; i++) {
    const alpha = orders[i];
    const r = Math.max(0, rdp[i]);
    const logKl = 0.5 * log1mExp(-r);
    const logBound = (alpha - 1) * (r - epsilon + Math.log1p(-1 / alpha)) - Math.log(alpha);
    const logDelta = Math.min(logKl, logBound);
    if (logDelta < bestLog) {
      bestLog = logDelta;
      bestOrder = alpha;
    }
  }
  return { value: Math.min(1, Math.exp(bestLog)), order: bestOrder };
}
