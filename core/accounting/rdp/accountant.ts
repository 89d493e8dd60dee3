/**
 * The RDP accountant: compose the events' RDP curves, then convert to (ε, δ) at the best
 * order of the grid (Balle et al. 2020, Thm 21). RDP conversion gives a valid upper bound
 * but no lower bound, so answers are {lower: 0, estimate: x, upper: x}.
 *
 * Approximate-RDP events (δ₀ > 0) are folded in as in dp_accounting: the RDP part must
 * reach δ' with δ₀ + (1 − δ₀)·δ' = δ, i.e. δ' = (δ − δ₀)/(1 − δ₀); ε = ∞ when δ ≤ δ₀.
 */
import type { Accountant, Bounds } from '../accountant';
import type { PrivacyEvent } from '../events';
import { deltaFromRdp, epsilonFromRdp } from './conversion';
import { rdpCurve } from './curve';
import { DEFAULT_RDP_ORDERS } from './orders';

const upperOnly = (x: number): Bounds => ({ lower: 0, estimate: x, upper: x });

/** An RDP accountant minimising over `orders` (each > 1). */
export function createRdpAccountant(grid: readonly number[] = DEFAULT_RDP_ORDERS): Accountant {
  const orders = Object.isFrozen(grid) ? grid : Object.freeze([...grid]); // a caller's later edit cannot reach the curve cache
  return {
    name: 'rdp',
    epsilon(event: PrivacyEvent, delta: number): Bounds {
      if (!(delta > 0 && delta < 1)) throw new RangeError(`rdpAccountant.epsilon: δ must be in (0, 1), got ${delta}`);
      const curve = rdpCurve(event, orders);
      if (delta <= curve.delta) return upperOnly(Infinity);
      const rdpDelta = (delta - curve.delta) / (1 - curve.delta);
      return upperOnly(epsilonFromRdp(orders, curve.rdp, rdpDelta).value);
    },
    delta(event: PrivacyEvent, epsilon: number): Bounds {
      if (!(epsilon >= 0) || epsilon === Infinity) throw new RangeError(`rdpAccountant.delta: ε must be finite and ≥ 0, got ${epsilon}`);
      const curve = rdpCurve(event, orders);
      const rdpDelta = deltaFromRdp(orders, curve.rdp, epsilon).value;
      return upperOnly(Math.min(1, curve.delta + (1 - curve.delta) * rdpDelta));
    },
  };
}

/** The RDP accountant over the default order grid (steps of 0.1 to 10.9, then integers to 2048). */
export const rdpAccountant: Accountant = createRdpAccountant();
