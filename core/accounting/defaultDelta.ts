/**
 * The default δ for N privacy units. Common practice asks for δ ≪ 1/N (δ is the chance
 * the guarantee fails outright; δ = 1/N allows releasing one unit's record whole). The
 * old default 1/(10·N) is only ten times below 1/N: for a small dataset (N = 360 gives
 * 2.78e-4) that is a failure chance no analyst would accept. The default is therefore
 *
 *   δ = min(1/(10·N), 10⁻⁵)
 *
 * — 1/(10·N) for large datasets (N ≥ 10,000), and at most 10⁻⁵ for small ones, so that
 * δ·N ≤ 0.1 always and δ·N ≤ 0.004 for N = 360.
 */
const DEFAULT_DELTA_CEILING = 1e-5;

export function defaultDelta(units: number): number {
  if (!(Number.isFinite(units) && units > 0)) throw new Error(`defaultDelta: the number of privacy units must be positive, got ${units}`);
  return Math.min(1 / (10 * units), DEFAULT_DELTA_CEILING);
}

/** The formula as the app states it beside a default. */
export const DEFAULT_DELTA_RULE = 'min(1/(10·N), 1e-5)';

/** δ as people read it: three significant digits in exponent form (2.78e-4, 1e-5). */
export function formatDelta(delta: number): string {
  const [mantissa, exponent] = delta.toExponential(2).split('e');
  return `${String(Number(mantissa))}e${exponent.replace('+', '')}`;
}
