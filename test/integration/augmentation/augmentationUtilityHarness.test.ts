/**
 * The augmentation utility bench's harness (bench/augmentSample.ts, augmentationUtility.bench.ts):
 * the thin split holds exactly `perLabel` public records of each label; an augmentation writes
 * between 1 and M public, tagged records (labelled from the label set, or unlabelled), none a text
 * the sample holds, from seeds of the thin split only; a row's summary is the mean, sample standard
 * deviation, min and max it says.
 */
import { describe, expect, it } from 'vitest';
import { allowSeededOnPrivatePath } from '../../../core/random/privatePathRandom';
import { seededRandom } from '../../../core/random/seededRandom';
import { loadReferenceLearner } from '../../../electron/services/model/referenceResources';
import { contentHash } from '../../../electron/services/vault/normalise';
import { SAMPLE_DATASETS } from '../../../electron/services/vault/sampleDataset';
import { summariseRow } from '../../../bench/augmentationUtility.bench';
import { augmentationInputs, augmentThin, publicBeyond, thinPublicSplit } from '../../../bench/augmentSample';
import { sampleSetup } from '../../../bench/sampleUtility';
import { spread } from '../../../bench/stats';

const seeded = (s: string) => allowSeededOnPrivatePath(seededRandom(s), 'test');

describe('augmentation utility harness', () => {
  it('augments a thin split of the clinic sample as the job does', async () => {
    const full = sampleSetup('clinic');
    const thin = thinPublicSplit(full, 2, seeded('thin'));
    expect(thin.publicRecords).toHaveLength(2 * full.dataset.labels.length);
    for (const label of full.dataset.labels) expect(thin.publicRecords.filter((r) => r.label === label)).toHaveLength(2);
    expect(thin.publicRecords.every((r) => full.publicRecords.includes(r))).toBe(true);
    expect(publicBeyond(full, thin)).toHaveLength(full.publicRecords.length - thin.publicRecords.length);

    const model = await loadReferenceLearner();
    const inputs = await augmentationInputs(full, model);
    const subjects = new Set(full.privateRecords.map((r) => r.subject));
    expect(inputs.points).toHaveLength(subjects.size); // one point per privacy unit (patient)
    const held = new Set(SAMPLE_DATASETS.clinic.records().map((r) => contentHash(r.text)));
    for (const rule of [{ kind: 'dpm', epsilon: 0.5 }, { kind: 'exact' }, { kind: 'uniform' }] as const) {
      const added = await augmentThin(thin, inputs, model, rule, 3, seeded(rule.kind));
      expect(added.records.length).toBeGreaterThan(0);
      expect(added.records.length).toBeLessThanOrEqual(3);
      expect(added.seeds).toBeGreaterThan(0);
      expect(added.seeds).toBeLessThanOrEqual(4);
      for (const r of added.records) {
        expect(r).toMatchObject({ split: 'public', tags: ['generated', 'augmentation-0'] });
        expect([undefined, ...full.dataset.labels]).toContain(r.label); // a written label of the set, or none
        expect(held.has(contentHash(r.text))).toBe(false);
      }
    }
  }, 120_000);

  it('summarises a row’s runs: mean, sample sd, min, max', () => {
    expect(spread([1, 2, 3, 6])).toEqual({ mean: 3, sd: Math.sqrt(14 / 3), min: 1, max: 6 });
    expect(spread([0.5])).toEqual({ mean: 0.5, sd: 0, min: 0.5, max: 0.5 });
    const run = (dpPrompt: number, labelled: number, seeds: number | null) => ({ dpPrompt, publicDemos: 0.5, zeroShot: 0.2, added: 20, labelled, seeds, fallback: seeds === 1 });
    const row = summariseRow([run(0.6, 20, 4), run(0.8, 18, 1)]);
    expect(row.balancedAccuracy.dpPrompt).toEqual({ mean: 0.7, sd: 0.141, min: 0.6, max: 0.8 });
    expect(row.balancedAccuracy.publicDemos).toEqual({ mean: 0.5, sd: 0, min: 0.5, max: 0.5 });
    expect(row).toMatchObject({ added: 20, labelled: 19, seeds: 2.5, fallbacks: 1, perRun: { dpPrompt: [0.6, 0.8] } });
    expect(summariseRow([run(0.6, 0, null)])).not.toHaveProperty('seeds');
    const paired = summariseRow([run(0.6, 20, 4), run(0.8, 18, 1)], [run(0.5, 0, null), run(0.9, 0, null)]);
    expect(paired.minusThinAlone!.dpPrompt).toEqual({ mean: 0, sd: 0.141, min: -0.1, max: 0.1 }); // +0.1 and −0.1, run by run
  });
});
