/**
 * The veil.augmentation/v1 verifier without a data directory: the self-contained checks pass on
 * a consistent document, the ledger is reported as not checked (so it is not valid), and the
 * release hash leaves out exactly the commit-bound fields — it covers the counts of examples
 * added and skipped, which must equal the examples carried. A document issued before the counts
 * were bound (a fixture written by that code) still verifies against a ledger holding its hash.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { accountEpsilon } from '../../../../core/accounting';
import { augmentationContentHash, augmentationReleaseHash, uncountedReleaseHash, type AugmentationDocument } from '../../../../core/export/augmentationFormat';
import { canonicalJson } from '../../../../core/export/canonicalJson';
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
    generated: { requested: 1, added: 1, duplicates: 0, tags: ['generated'] }, contentHash: await augmentationContentHash(examples), examples,
  };
  return { ...issued, releaseHash: await augmentationReleaseHash(issued), ledger: { entryId: 7, entryHash: 'ab'.repeat(32) } };
}

const failedChecks = (result: { checks: { name: string; ok: boolean }[] }) => result.checks.filter((c) => !c.ok).map((c) => c.name);

describe('verifyAugmentation', () => {
  it('passes the self-contained checks and reports the ledger as not checked', async () => {
    const result = await verifyAugmentation(JSON.stringify(await document()), deps);
    expect(result.checks.filter((c) => !c.ok)).toEqual([{ name: 'ledger entry', ok: false, detail: 'not checked: no ledger available here' }]);
    expect(result.valid).toBe(false);
  });

  it('hashes every field but ledger and releaseHash, the counts included', async () => {
    const doc = await document();
    const base = await augmentationReleaseHash(doc);
    expect(await augmentationReleaseHash({ ...doc, ledger: { entryId: 8, entryHash: 'cd' }, releaseHash: 'ef' })).toBe(base);
    expect(await augmentationReleaseHash({ ...doc, generated: { ...doc.generated, added: 0, duplicates: 1 } })).not.toBe(base);
    expect(await uncountedReleaseHash({ ...doc, generated: { ...doc.generated, added: 0, duplicates: 1 } })).toBe(await uncountedReleaseHash(doc));
    expect(await augmentationReleaseHash({ ...doc, generated: { ...doc.generated, tags: [] } })).not.toBe(base);
    expect(await augmentationReleaseHash({ ...doc, issuedAt: '2026-01-02T00:00:00.000Z' })).not.toBe(base);
    expect(await augmentationReleaseHash({ ...doc, note: 'an added field' })).not.toBe(base);
  });

  it('fails the release hash and the counts when a count is edited', async () => {
    const doc = await document();
    const edited = await verifyAugmentation(JSON.stringify({ ...doc, generated: { ...doc.generated, added: 0, duplicates: 1 } }), deps);
    expect(failedChecks(edited)).toEqual(['release hash', 'ledger entry']);
    // Re-hashed after the edit (as a forger would; the ledger would then disagree): the counts no longer add up to the examples.
    const forged = { ...doc, generated: { ...doc.generated, added: 0, duplicates: 1 } };
    const result = await verifyAugmentation(JSON.stringify({ ...forged, releaseHash: await augmentationReleaseHash(forged) }), deps);
    expect(failedChecks(result)).toEqual(['generated counts', 'ledger entry']);
    expect(result.checks.find((c) => c.name === 'generated counts')?.detail).toMatch(/adds all 1 examples it certifies or none/);
  });

  it('verifies a document issued before the counts were bound (fixture) against a ledger holding its hash', async () => {
    const text = readFileSync(new URL('../../../fixtures/augmentation/legacy-uncounted-v1.json', import.meta.url), 'utf8');
    const legacy = JSON.parse(text) as AugmentationDocument;
    expect(await augmentationReleaseHash(legacy)).not.toBe(legacy.releaseHash);
    const commit = {
      entryHash: legacy.ledger.entryHash, outputHash: legacy.releaseHash ?? null, eventJson: canonicalJson(legacy.event), chainIntact: true,
      parameters: { mechanism: 'dpm', rho: legacy.rho, depth: legacy.depth, epsilon: 1, delta: legacy.delta, examples: legacy.generated.requested },
    };
    const ledger = { commit: async (id: number) => (id === legacy.ledger.entryId ? commit : null) };
    const result = await verifyAugmentation(text, { ...deps, ledger });
    expect(result.checks.filter((c) => !c.ok)).toEqual([]);
    expect(result.valid).toBe(true);
    expect(result.checks.find((c) => c.name === 'release hash')?.detail).toMatch(/older document: generated\.added and duplicates are not covered/);
    expect(result.checks.find((c) => c.name === 'generated counts')?.detail).toBe('2 added + 0 skipped as already held = 2 examples (counts not bound by this older document\'s release hash)');
    // Its counts are not bound, but an edit of anything else still fails.
    const edited = await verifyAugmentation(JSON.stringify({ ...legacy, model: { ...legacy.model, name: 'another' } }), { ...deps, ledger });
    expect(failedChecks(edited)).toEqual(['release hash', 'ledger output hash']);
  });

  it('names the format it expects for other text, quoting none of it', async () => {
    const result = await verifyAugmentation('secret text, not JSON', deps);
    expect(result.checks).toEqual([{ name: 'format', ok: false, detail: expect.stringMatching(/^not JSON: not a veil\.augmentation\/v1 document/) }]);
    expect(JSON.stringify(result)).not.toContain('secret');
  });
});
