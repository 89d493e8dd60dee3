/**
 * The warnings an analyst sees before spending budget (synthesis jobs and the planner):
 * δ against the number of privacy units, ε above common practice, sampling rates too high
 * for subsampling to amplify privacy, and a plan that would exceed the cap.
 */

/** ε above this is unusual in published deployments (e.g. ε ≤ 10 in most DP-ICL work). */
const COMMON_PRACTICE_EPSILON = 10;
/** Above this sampling rate amplification by subsampling gives little (q → 1: none). */
const HIGH_SAMPLING_RATE = 0.5;

export interface WarningInputs {
  delta: number;
  /** Privacy units N. */
  units: number;
  epsilon: number;
  rates: { pool: string; q: number }[];
}

export function planWarnings({ delta, units, epsilon, rates }: WarningInputs): string[] {
  const warnings: string[] = [];
  if (delta >= 1 / units) warnings.push(`δ = ${delta} ≥ 1/N = ${(1 / units).toPrecision(3)}: such a δ allows releasing a record outright; use δ ≤ 1/(10·N)`);
  if (epsilon > COMMON_PRACTICE_EPSILON) warnings.push(`ε = ${epsilon} is above common practice (ε ≤ ${COMMON_PRACTICE_EPSILON})`);
  for (const { pool, q } of rates) {
    if (q > HIGH_SAMPLING_RATE) warnings.push(`pool ${pool}: sampling rate q = ${q.toPrecision(3)} is too high for subsampling to amplify privacy; lower the number of examples per query or use more data`);
  }
  return warnings;
}

export const overCapWarning = (after: number, cap: number) =>
  `this plan would bring ε to ${after.toPrecision(4)}, above the cap ${cap}: a job like it will be refused`;
