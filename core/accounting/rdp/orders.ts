/**
 * The default grid of Rényi orders the accountant minimises over: steps of 0.1 below 11
 * (where the optimum of a heavily composed or strongly subsampled event lies; a superset of
 * dp_accounting's and opacus' fractional orders), every integer to 64, then geometric steps
 * of 2^{1/8} (~9 %) to 2048 for pure-DP-like events at small δ.
 */
function defaultOrders(): number[] {
  const orders = [1.05];
  for (let tenth = 1; tenth <= 99; tenth++) orders.push(1 + tenth / 10);
  for (let alpha = 11; alpha <= 64; alpha++) orders.push(alpha);
  for (let eighth = 49; eighth <= 88; eighth++) orders.push(Math.round(2 ** (eighth / 8)));
  return orders;
}

export const DEFAULT_RDP_ORDERS: readonly number[] = Object.freeze(defaultOrders());
