/**
 * Augmentation seeds (core/icl/augmentation): one clipped point per privacy unit; the seeds come
 * from the DPM release's noisy sums and counts only (a mocked release whose noisy centre lies far
 * from the exact private mean decides them); the event is the unsampled DPM event at ρ; the
 * prompt holds only the seeds it is given.
 */
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { augmentationPrompt, parseGenerated } from '../../../../../core/icl/augmentation/augmentationPrompt';
import { augmentationEvent, augmentationSeeds, unitPoint } from '../../../../../core/icl/augmentation/augmentationSeeds';
import { DEFAULT_SGA_SETTINGS } from '../../../../../core/icl/answering/sga/semanticGroups';
import { sgaMechanismEvent } from '../../../../../core/planning/sgaEvent';
import { allowSeededOnPrivatePath } from '../../../../../core/random/privatePathRandom';
import { seededRandom } from '../../../../../core/random/seededRandom';

/** When set, privateMondrian returns one leaf built from the PUBLIC point at this index (its "noisy" sum), ignoring the private points. */
const mock = vi.hoisted(() => ({ leafAtPublic: null as number | null, privateSeen: 0 }));

vi.mock('../../../../../core/mechanisms/privateMondrian', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../../../../core/mechanisms/privateMondrian')>();
  return {
    ...original,
    privateMondrian: (...args: Parameters<typeof original.privateMondrian>) => {
      const real = original.privateMondrian(...args);
      if (mock.leafAtPublic === null) return real;
      const [privatePoints, publicPoints] = args;
      mock.privateSeen = privatePoints.length;
      const noisyCount = 5;
      const noisySum = Float64Array.from(publicPoints[mock.leafAtPublic], (v) => v * noisyCount);
      return { output: { leaves: [{ ...real.output.leaves[0], noisyCount, noisySum }] }, event: real.event };
    },
  };
});

const random = () => allowSeededOnPrivatePath(seededRandom('augmentation-seeds'), 'test');
const axis = (i: number, d = 4) => Float64Array.from({ length: d }, (_, j) => (j === i ? 1 : 0));
const publicEmbeddings = [axis(0), axis(1), axis(2), axis(3)];

describe('unitPoint', () => {
  it('is the mean of the clipped record embeddings, clipped to norm ≤ 1', () => {
    const close = (got: Float64Array, want: number[]) => want.forEach((w, i) => expect(got[i]).toBeCloseTo(w, 12));
    close(unitPoint([[3, 4]]), [0.6, 0.8]);
    close(unitPoint([[2, 0], [0, 0.5]]), [0.5, 0.25]);
    fc.assert(
      fc.property(fc.array(fc.array(fc.double({ min: -10, max: 10, noNaN: true }), { minLength: 3, maxLength: 3 }), { minLength: 1, maxLength: 6 }), (records) => {
        expect(Math.hypot(...unitPoint(records))).toBeLessThanOrEqual(1 + 1e-12);
      }),
    );
    expect(() => unitPoint([])).toThrow(RangeError);
  });
});

describe('augmentationSeeds', () => {
  it('charges the unsampled DPM event at ρ', () => {
    mock.leafAtPublic = null;
    const points = Array.from({ length: 40 }, (_, i) => axis(i % 2));
    const { event, seeds } = augmentationSeeds(points, publicEmbeddings, 0.2, random());
    expect(event).toEqual(augmentationEvent(0.2, DEFAULT_SGA_SETTINGS.depth));
    expect(event).toEqual(sgaMechanismEvent(0.2, 2));
    expect(JSON.stringify(event)).not.toContain('poisson');
    for (const s of seeds) expect(s).toBeGreaterThanOrEqual(0);
    expect(() => augmentationSeeds(points, [], 0.2, random())).toThrow(/public/);
  });

  it('selects the public example nearest the NOISY centre, not the exact private mean', () => {
    // Every private point sits on public example 0; the released noisy sum points at example 2.
    mock.leafAtPublic = 2;
    const points = Array.from({ length: 30 }, () => axis(0));
    const { seeds, noisyCounts } = augmentationSeeds(points, publicEmbeddings, 1, random());
    expect(mock.privateSeen).toBe(30);
    expect(seeds).toEqual([2]);
    expect(noisyCounts).toEqual([5]);
    mock.leafAtPublic = null;
  });
});

describe('augmentationPrompt', () => {
  it('shows the seeds in rotation and ends where the model writes a text', () => {
    const seeds = [{ text: 'alpha note', answer: 'a' }, { text: 'beta note', answer: null }];
    const prompt = augmentationPrompt('Summarise.', seeds, 1);
    expect(prompt.indexOf('beta note')).toBeLessThan(prompt.indexOf('alpha note'));
    expect(prompt.endsWith('Text:')).toBe(true);
    expect(() => augmentationPrompt('x', [], 0)).toThrow(RangeError);
  });

  it('parses a generated example', () => {
    expect(parseGenerated(' a new note\nAnswer: its summary\nText: next')).toEqual({ text: 'a new note', answer: 'its summary' });
    expect(parseGenerated(' only a text')).toEqual({ text: 'only a text', answer: null });
    expect(parseGenerated('  \nAnswer: x')).toBeNull();
  });
});
