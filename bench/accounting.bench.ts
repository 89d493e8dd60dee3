/**
 * Accounting benchmarks over the reference vectors (test/fixtures/reference, a copy of ../shared/reference; or
 * $VEIL_REFERENCE_VECTORS):
 * - seconds per ε query of the PLD accountant over the 124 Poisson-subsampled Gaussian
 *   cases, and over the 100 with q < 1 (target: below prv_accountant's recorded median,
 *   0.15–0.16 s; aim 10× faster);
 * - seconds per σ calibration over the 19 calibration cases (target ≤ 0.5 s).
 * Each case runs several times after a warm-up pass; per case the median is kept, then the
 * median (and worst) over cases is reported, with the worst relative error to dp_accounting.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { calibrateGaussianSigma } from '../core/accounting/calibration';
import { composed, gaussian, poissonSampled } from '../core/accounting/events';
import { pldAccountant } from '../core/accounting/pld';
import { median, timeRuns } from './stats';

const QUERY_RUNS = 5;
const CALIBRATION_RUNS = 3;

interface Summary {
  medianSeconds: number;
  worstSeconds: number;
  worstRelativeError: number;
}

/** Per case: the median seconds of `runs` timed calls and the relative error to the reference. */
async function measure<C>(cases: C[], runs: number, once: (c: C) => { value: number; reference: number }): Promise<{ seconds: number; error: number }[]> {
  for (const c of cases) once(c); // warm-up (JIT)
  const results: { seconds: number; error: number }[] = [];
  for (const c of cases) {
    const { value, reference } = once(c);
    results.push({ seconds: (await timeRuns(runs, () => once(c))).median, error: Math.abs(value - reference) / reference });
  }
  return results;
}

function summarise(results: { seconds: number; error: number }[]): Summary {
  const seconds = results.map((r) => r.seconds);
  return { medianSeconds: median(seconds), worstSeconds: Math.max(...seconds), worstRelativeError: Math.max(...results.map((r) => r.error)) };
}

export async function run(): Promise<object> {
  const path = process.env.VEIL_REFERENCE_VECTORS ?? fileURLToPath(new URL('../test/fixtures/reference/accountant_vectors.json', import.meta.url));
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- plain JSON data
  const vectors: any = JSON.parse(readFileSync(path, 'utf8'));
  const epsilonCases = vectors.poisson_subsampled_gaussian_epsilon.cases;
  const calibrationCases = vectors.sigma_calibration.cases;
  const recorded = (cases: { [k: string]: { seconds: number } }[], key: string) => median(cases.filter((c) => c[key]).map((c) => c[key].seconds));

  const epsilonResults = await measure(epsilonCases, QUERY_RUNS, (c: { inputs: { q: number; sigma: number; T: number; delta: number }; dp_accounting_pld: { epsilon: number } }) => {
    const { q, sigma, T, delta } = c.inputs;
    const event = composed(q === 1 ? gaussian(sigma) : poissonSampled(q, gaussian(sigma)), T);
    return { value: pldAccountant.epsilon(event, delta).estimate, reference: c.dp_accounting_pld.epsilon };
  });
  const calibration = summarise(await measure(calibrationCases, CALIBRATION_RUNS, (c: { inputs: { q: number; T: number; target_epsilon: number; target_delta: number }; [k: string]: unknown }) => {
    const { q, T, target_epsilon: eps, target_delta: delta } = c.inputs;
    const reference = (c['dp_accounting_calibrate_pld_vdi_1e-4'] as { sigma: number }).sigma;
    return { value: calibrateGaussianSigma({ q, steps: T, epsilon: eps, delta }).sigma, reference };
  }));
  const epsilon = summarise(epsilonResults);
  const subsampled = epsilonCases.map((c: { inputs: { q: number } }, i: number) => (c.inputs.q < 1 ? i : -1)).filter((i: number) => i >= 0);
  const prvMedian = recorded(epsilonCases, 'prv_accountant');
  return {
    epsilonQuery: {
      cases: epsilonCases.length,
      runsPerCase: QUERY_RUNS,
      ...epsilon,
      subsampledOnly: {
        cases: subsampled.length,
        ...summarise(subsampled.map((i: number) => epsilonResults[i])),
        prvAccountantMedianSeconds: recorded(subsampled.map((i: number) => epsilonCases[i]), 'prv_accountant'),
      },
      prvAccountantMedianSeconds: prvMedian,
      dpAccountingPldMedianSeconds: recorded(epsilonCases, 'dp_accounting_pld'),
      targetSeconds: prvMedian,
      aimSeconds: prvMedian / 10,
      withinTarget: epsilon.medianSeconds < prvMedian,
      withinAim: epsilon.medianSeconds < prvMedian / 10,
    },
    sigmaCalibration: {
      cases: calibrationCases.length,
      runsPerCase: CALIBRATION_RUNS,
      ...calibration,
      prvAccountantMedianSeconds: recorded(calibrationCases, 'prv_accountant_find_noise_multiplier_eps_error_0.1'),
      dpAccountingPldMedianSeconds: recorded(calibrationCases, 'dp_accounting_calibrate_pld_vdi_1e-4'),
      targetSeconds: 0.5,
      withinTarget: calibration.medianSeconds <= 0.5,
    },
  };
}
