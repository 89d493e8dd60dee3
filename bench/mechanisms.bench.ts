/**
 * Mechanism benchmarks (CSPRNG source, as in production):
 * - joint exponential mechanism, d = 50,000 items, k = 30 (target ≤ 150 ms median), on Zipf
 *   counts at ε = 1 and on flat counts at ε = 0.01 (no pair's weight underflows: the whole
 *   merge runs), beside one sort of the d counts (reference);
 * - Poisson subsampling of n = 1,000,000 units at q = 0.001 with assignment to 10 teachers;
 * - standard normal draws per second (ziggurat), and discrete Gaussian draws per second.
 */
import { jointExponentialTopK } from '../core/mechanisms/jointExponentialMechanism';
import { sortIndicesDescending } from '../core/mechanisms/types';
import { poissonSampleTeachers } from '../core/mechanisms/poissonSampling';
import { createCryptoRandom } from '../core/random/cryptoRandom';
import { sampleDiscreteGaussian } from '../core/random/discrete';
import { sampleStandardNormal } from '../core/random/samplers';
import { seededRandom } from '../core/random/seededRandom';
import { timeRuns } from './stats';
import { tableRow } from './table';

export async function run(): Promise<object> {
  const random = createCryptoRandom();

  // Zipf-like counts with noise-free structure (data are generated with a seeded source).
  const d = 50_000;
  const k = 30;
  const gen = seededRandom('bench-counts');
  const counts = Float64Array.from({ length: d }, (_, i) => Math.floor(1e5 / (i + 1)) + (gen.nextUint32() % 3));
  jointExponentialTopK(counts, k, { epsilon: 1 }, random); // warm-up (JIT)
  const joint = await timeRuns(15, () => jointExponentialTopK(counts, k, { epsilon: 1 }, random));
  const flat = Float64Array.from({ length: d }, () => gen.nextUint32() % 50);
  const jointFlat = await timeRuns(7, () => jointExponentialTopK(flat, k, { epsilon: 0.01 }, random));
  const sort = await timeRuns(15, () => sortIndicesDescending(counts));
  const oneSort = { what: 'one sort of the d counts', seconds: sort.median };

  poissonSampleTeachers(1_000_000, 0.001, 10, random);
  const poisson = await timeRuns(50, () => poissonSampleTeachers(1_000_000, 0.001, 10, random));

  const gaussianDraws = 5_000_000;
  let sink = 0;
  const gaussian = await timeRuns(5, () => {
    for (let i = 0; i < gaussianDraws; i++) sink += sampleStandardNormal(random);
  });

  const discreteDraws = 100_000;
  const discrete = await timeRuns(3, () => {
    for (let i = 0; i < discreteDraws; i++) sink += sampleDiscreteGaussian(random, 3.5);
  });

  return {
    table: [
      tableRow('joint exponential mechanism d = 50k, k = 30 (Zipf counts, ε = 1)', joint.median, 0.15, oneSort),
      tableRow('joint exponential mechanism d = 50k, k = 30 (flat counts, ε = 0.01: whole merge)', jointFlat.median, 0.15, oneSort),
    ],
    jointExponentialTopK: { d, k, medianMs: joint.median * 1000, flatCountsMedianMs: jointFlat.median * 1000, targetMs: 150, withinTarget: joint.median * 1000 <= 150 },
    poissonSample: { n: 1_000_000, q: 0.001, teachers: 10, medianMs: poisson.median * 1000 },
    gaussianSamplesPerSecond: Math.round(gaussianDraws / gaussian.median),
    discreteGaussianSamplesPerSecond: { sigma: 3.5, value: Math.round(discreteDraws / discrete.median) },
    checksum: Number.isFinite(sink),
  };
}
