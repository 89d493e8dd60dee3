import { describe, expect, it } from 'vitest';
import { adaDpSynAggregator, adaDpSynCentre, defaultAdaDpSynParams, effectiveSigma, noiseMultipliers, RADIUS_PROBES } from '../../../../core/icl/adaDpSyn';
import { tangAggregator } from '../../../../core/icl/dpFewShot';
import { argmax, sumVectors } from '../../../../core/icl/teacherEnsemble';
import { seededRandom } from '../../../../core/random/seededRandom';
import { chiSquarePasses } from '../random/stats';

const vec = (...xs: number[]) => Float64Array.from(xs);
/** Ten teachers mostly voting for candidate 1, two dissenting. */
const agreeing = [
  ...Array.from({ length: 8 }, () => vec(0.1, 0.7, 0.1, 0.1)),
  vec(0.6, 0.2, 0.1, 0.1),
  vec(0.1, 0.1, 0.7, 0.1),
];
/** Ten teachers voting for candidate 3. */
const other = Array.from({ length: 10 }, () => vec(0.1, 0.1, 0.1, 0.7));

const aggregators = {
  'tang gaussian': (s: number) => tangAggregator({ kind: 'gaussian', sigma: s }),
  'tang exponential': (s: number) => tangAggregator({ kind: 'exponential', epsilon: 1 / s }),
  adadpsyn: (s: number) => adaDpSynAggregator(defaultAdaDpSynParams(s)),
};

describe.each(Object.entries(aggregators))('%s aggregator', (_name, make) => {
  it('with (near) zero noise releases the non-private aggregate', () => {
    const random = seededRandom(1);
    const expected = argmax(sumVectors(agreeing, 4));
    for (let i = 0; i < 50; i++) expect(make(1e-9).choose(agreeing, random)).toBe(expected);
  });

  it('with overwhelming noise its output is independent of the private data', () => {
    // 3000 draws per dataset; the pooled index frequencies estimate the common law.
    // Homogeneity chi-square at p = 0.001 (z = 3.09): a real dependence as strong as the
    // low-noise case (all mass on one index) would exceed the critical value ~100-fold.
    const random = seededRandom(2);
    const counts = [new Float64Array(4), new Float64Array(4)];
    [agreeing, other].forEach((vectors, d) => {
      for (let i = 0; i < 3000; i++) counts[d][make(1e6).choose(vectors, random)]++;
    });
    const pooled = Array.from({ length: 4 }, (_, i) => (counts[0][i] + counts[1][i]) / 6000);
    expect(chiSquarePasses(counts[0], pooled).pass).toBe(true);
    expect(chiSquarePasses(counts[1], pooled).pass).toBe(true);
    // The same test rejects a dependent mechanism (low noise): it can fail.
    const lowNoise = [new Float64Array(4), new Float64Array(4)];
    [agreeing, other].forEach((vectors, d) => {
      for (let i = 0; i < 300; i++) lowNoise[d][make(0.01).choose(vectors, random)]++;
    });
    const lowPooled = Array.from({ length: 4 }, (_, i) => (lowNoise[0][i] + lowNoise[1][i]) / 600);
    expect(chiSquarePasses(lowNoise[0], lowPooled).pass).toBe(false);
  });

  it('charges a Poisson-sampled event at the given rate', () => {
    const event = make(2).stepEvent(0.05);
    expect(event).toMatchObject({ kind: 'poisson-sampled', q: 0.05, neighbouring: 'add-remove' });
  });
});

describe('AdaDPSyn accounting', () => {
  it('splits the step precision so the mechanisms compose to exactly σ_eff', () => {
    for (const sigma of [0.5, 2, 10]) {
      for (const rounds of [0, 1, 3]) {
        const params = { ...defaultAdaDpSynParams(sigma), rounds };
        expect(effectiveSigma(params)).toBeCloseTo(sigma, 12);
      }
    }
  });

  it('charges the maximum mechanism count: more rounds means more noise per mechanism', () => {
    const one = noiseMultipliers({ ...defaultAdaDpSynParams(1), rounds: 1 });
    const four = noiseMultipliers({ ...defaultAdaDpSynParams(1), rounds: 4 });
    expect(four.projectedMean).toBeGreaterThan(one.projectedMean);
    expect(RADIUS_PROBES).toBeGreaterThanOrEqual(3);
    expect(adaDpSynAggregator(defaultAdaDpSynParams(3)).stepEvent(0.1)).toEqual({
      kind: 'poisson-sampled', q: 0.1, neighbouring: 'add-remove',
      event: { kind: 'gaussian', sigma: 3, sensitivity: 1, neighbouring: 'add-remove' },
    });
  });

  it('with tiny noise and agreeing teachers the centre is the mean of their projections', () => {
    const tight = Array.from({ length: 10 }, (_, i) => vec(0.1 + i * 1e-4, 0.7 - i * 1e-4, 0.1, 0.1));
    const centre = adaDpSynCentre(tight, defaultAdaDpSynParams(1e-9), seededRandom(3));
    const mean = sumVectors(tight, 4).map((x) => x / 10);
    for (let j = 0; j < 4; j++) expect(centre[j]).toBeCloseTo(mean[j], 6);
  });
});
