/**
 * The veil.augmentation/v1 verifier without a data directory: the self-contained checks pass on
 * a consistent document, the ledger is reported as not checked (so it is not valid), and the
 * release hash leaves out exactly the commit-bound fields.
 */
import { describe, expect, it } from 'vitest';
import { accountEpsilon } from '../../../../core/accounting';
import { augmentationContentHash, augmentationReleaseHash, type AugmentationDocument } from '../../../../core/export/augmentationFormat';
import { verifyAugmentation } from '../../../../core/export/verifyAugmentation';
import { augmentationEvent } from '../../../../core/icl/augmentation/augmentationSeeds';

const deps = { epsilonOf: (event: AugmentationDocument['event'], delta: number) => accountEpsilon(event, delta).bounds };

async function document(): Promise<AugmentationDocument> {
  const event = augmentationEvent(0.02, 2);
  const examples = [{ text: 'A visitor came in with a cough.', label: null, output: 'cough' }];
  const issued = {
    format: 'veil.augmentation/v1' as const, dataset: 'notes', issuedAt: '2026-01-01T00:00:00.000Z', privacyUnit: 'subject' as const, neighbouring: 'add-remove' as const,
    mechanism: 'DPM', rho: 0.02, depth: 2, event, epsilon: accountEpsilon(event, 1e-5).bounds, delta: 1e-5, accountant: 'test',
    model: { backend: 'reference', name: 'reference' }, seeds: { count: 2, noisyCounts: [10, 4], fallback: false },
    generated: { requested: 1, added: 0, duplicates: 0, tags: ['generated'] }, contentHash: await augmentationContentHash(examples), examples,
  };
  return { ...issued, generated: { ...issued.generated, added: 1 }, releaseHash: await augmentationReleaseHash(issued), ledger: { entryId: 7, entryHash: 'ab'.repeat(32) } };
}

describe('verifyAugmentation', () => {
  it('passes the self-contained checks and reports the ledger as not checked', async () => {
    const result = await verifyAugmentation(JSON.stringify(await document()), deps);
    expect(result.checks.filter((c) => !c.ok)).toEqual([{ name: 'ledger entry', ok: false, detail: 'not checked: no ledger available here' }]);
    expect(result.valid).toBe(false);
  });

  it('hashes every field but ledger, releaseHash and the vault counts', async () => {
    const doc = await document();
    const base = await augmentationReleaseHash(doc);
    expect(await augmentationReleaseHash({ ...doc, ledger: { entryId: 8, entryHash: 'cd' }, generated: { ...doc.generated, added: 0, duplicates: 1 } })).toBe(base);
    expect(await augmentationReleaseHash({ ...doc, generated: { ...doc.generated, tags: [] } })).not.toBe(base);
    expect(await augmentationReleaseHash({ ...doc, issuedAt: '2026-01-02T00:00:00.000Z' })).not.toBe(base);
    expect(await augmentationReleaseHash({ ...doc, note: 'an added field' })).not.toBe(base);
  });

  it('names the format it expects for other text, quoting none of it', async () => {
    const result = await verifyAugmentation('secret text, not JSON', deps);
    expect(result.checks).toEqual([{ name: 'format', ok: false, detail: expect.stringMatching(/^not JSON: not a veil\.augmentation\/v1 document/) }]);
    expect(JSON.stringify(result)).not.toContain('secret');
  });
});
