/**
 * The pool-size release (issue 20 item 1): discrete Laplace counts with the stated scale and
 * event, ℓ1 sensitivity by privacy unit, never below 1; declared-public sizes pass exactly with
 * no event; a seeded source is refused. With the same noise, neighbouring datasets' outputs
 * differ by exactly the one unit — the mechanism adds noise that does not depend on the count.
 */
import { describe, expect, it } from 'vitest';
import { poolSizeSource, releasePoolSizes } from '../../../../core/icl/noisyPoolSizes';
import { allowSeededOnPrivatePath, NonCryptographicRandomError } from '../../../../core/random/privatePathRandom';
import { seededRandom } from '../../../../core/random/seededRandom';

const seeded = (seed: number) => allowSeededOnPrivatePath(seededRandom(seed), 'test');

describe('noisy pool sizes', () => {
  it('releases discrete Laplace counts charged as pure ε, parallel over record-level pools', () => {
    const release = releasePoolSizes({ exact: [120, 80], privacyUnit: 'record', sizePublic: false, random: seeded(1) });
    expect(release.source).toEqual({ kind: 'noisy', mechanism: 'discrete-laplace', scale: 10, l1Sensitivity: 1, epsilon: 0.1 });
    expect(release.event).toEqual({ kind: 'pure', epsilon: 0.1, neighbouring: 'add-remove' });
    expect(release.sizes.every(Number.isInteger)).toBe(true);
    // One subject may be in every pool: ℓ1 = pools, scale grows so that ε stays 0.1.
    expect(poolSizeSource(3, 'subject', false)).toMatchObject({ l1Sensitivity: 3, scale: 30, epsilon: 0.1 });
  });

  it('with the same noise, one added unit moves its own pool by exactly one', () => {
    for (let seed = 0; seed < 20; seed++) {
      const a = releasePoolSizes({ exact: [500, 300], privacyUnit: 'record', sizePublic: false, random: seeded(seed) }).sizes;
      const b = releasePoolSizes({ exact: [501, 300], privacyUnit: 'record', sizePublic: false, random: seeded(seed) }).sizes;
      expect([b[0] - a[0], b[1] - a[1]]).toEqual([1, 0]);
    }
  });

  it('noise is real: over 400 draws the counts spread with the discrete Laplace variance, and never go below 1', () => {
    const draws = Array.from({ length: 400 }, (_, i) => releasePoolSizes({ exact: [1000], privacyUnit: 'record', sizePublic: false, random: seeded(100 + i) }).sizes[0] - 1000);
    const variance = draws.reduce((s, d) => s + d * d, 0) / draws.length;
    // Var = 2e^{-1/t}/(1 − e^{-1/t})² ≈ 199.8 for t = 10; 400 draws: relative sd of the estimate ≈ 0.17, so [100, 320] is > 3 sd wide.
    expect(variance).toBeGreaterThan(100);
    expect(variance).toBeLessThan(320);
    const tiny = releasePoolSizes({ exact: [1], privacyUnit: 'record', sizePublic: false, random: seeded(3) });
    expect(tiny.sizes[0]).toBeGreaterThanOrEqual(1);
  });

  it('declared public: exact sizes and no event; a seeded source is refused on the private path', () => {
    expect(releasePoolSizes({ exact: [7, 9], privacyUnit: 'record', sizePublic: true, random: seededRandom(1) })).toEqual({ sizes: [7, 9], source: { kind: 'declared-public' }, event: null });
    expect(() => releasePoolSizes({ exact: [7], privacyUnit: 'record', sizePublic: false, random: seededRandom(1) })).toThrow(NonCryptographicRandomError);
  });
});
