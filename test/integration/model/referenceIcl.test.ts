/**
 * The reference learner learns in context: on 200 held-out SpamAssassin e-mails (never in
 * its background corpus), 8-shot accuracy must beat zero-shot by at least 10 points.
 */
import { describe, expect, it } from 'vitest';
import { loadReferenceLearner } from '../../../electron/services/model/referenceResources';
import { fewShotAccuracy, heldOutSplit } from './iclHarness';

describe('reference learner in-context learning', () => {
  it('8-shot accuracy ≥ zero-shot + 10 points on ≥ 200 held-out e-mails', async () => {
    const model = await loadReferenceLearner();
    const split = heldOutSplit(100, 200);
    expect(split.test.length).toBeGreaterThanOrEqual(200);
    const test = new Set(split.test.map((e) => e.id));
    expect([...split.demos.spam, ...split.demos.ham].some((e) => test.has(e.id))).toBe(false);
    const zeroShot = await fewShotAccuracy(model, split, 0);
    const eightShot = await fewShotAccuracy(model, split, 8);
    console.info(`reference learner on ${split.test.length} held-out e-mails: zero-shot ${(100 * zeroShot).toFixed(1)}%, 8-shot ${(100 * eightShot).toFixed(1)}%`);
    expect(eightShot).toBeGreaterThanOrEqual(zeroShot + 0.1);
  });
});
