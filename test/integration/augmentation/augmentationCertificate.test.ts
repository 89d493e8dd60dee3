/**
 * The veil.augmentation/v1 document verifies (real SQLite ledger, the reference learner): the
 * exported run passes every check through `certificate.verify`; editing the event, ε, a generated
 * example, a descriptive field or the ledger entry id each fails the checks that name it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AugmentationDocument } from '../../../core/export/augmentationFormat';
import { augmentationEvent } from '../../../core/icl/augmentation/augmentationSeeds';
import { callMethod } from '../../../electron/services/api';
import type { ServiceContext } from '../../../electron/services/context';
import { notesDataDir } from './notesDataset';

let ctx: ServiceContext;
let remove: () => Promise<void>;
let runId: number;
let exported: AugmentationDocument;

beforeAll(async () => {
  ({ ctx, remove } = await notesDataDir('veil-augment-cert-'));
  const started = await callMethod(ctx, 'augment.start', { dataset: 'notes', epsilon: 0.5, examples: 3 });
  expect((await ctx.jobs.wait(started.jobId)).status).toBe('succeeded');
  runId = started.runId;
  exported = JSON.parse((await callMethod(ctx, 'augment.export', { id: runId })).content) as AugmentationDocument;
}, 300_000);
afterAll(() => remove?.());

const verify = (doc: unknown) => callMethod(ctx, 'certificate.verify', { document: JSON.stringify(doc) });
const failed = async (doc: unknown) => (await verify(doc)).checks.filter((c) => !c.ok).map((c) => c.name);

describe('augmentation certificate', () => {
  it('exports the certificate with the generated examples, and it verifies', async () => {
    const run = await callMethod(ctx, 'augment.get', { id: runId });
    expect(exported).toMatchObject({ ...run.certificate, examples: expect.any(Array) });
    expect(exported.examples.length).toBe(run.added);
    expect(exported.generated.duplicates).toBe(0);
    const result = await verify(exported);
    expect(result.checks.map((c) => c.name)).toEqual(['format', 'content hash', 'release hash', 'generated counts', 'epsilon', 'ledger entry', 'ledger output hash', 'ledger event', 'ledger parameters', 'ledger chain']);
    expect(result.checks.filter((c) => !c.ok)).toEqual([]);
    expect(result.valid).toBe(true);
    expect(result.certificate).toEqual(run.certificate);
  }, 120_000);

  it('fails the epsilon and ledger event checks when the event is edited', async () => {
    const names = await failed({ ...exported, event: augmentationEvent(exported.rho * 2, exported.depth) });
    expect(names).toEqual(['release hash', 'epsilon', 'ledger output hash', 'ledger event']);
  }, 120_000);

  it('fails the epsilon check when ε is edited', async () => {
    const names = await failed({ ...exported, epsilon: { ...exported.epsilon, upper: exported.epsilon.upper / 2 } });
    expect(names).toEqual(['release hash', 'epsilon', 'ledger output hash']);
  }, 120_000);

  it('fails the release and ledger output hashes when a descriptive field is edited, naming it', async () => {
    const result = await verify({ ...exported, model: { ...exported.model, name: 'another-model' } });
    expect(result.checks.filter((c) => !c.ok).map((c) => c.name)).toEqual(['release hash', 'ledger output hash']);
    expect(result.checks.find((c) => c.name === 'ledger output hash')?.detail).toContain('model.name');
  }, 120_000);

  it('fails the content and ledger output hashes when a generated example is edited, naming it', async () => {
    const examples = exported.examples.map((e, i) => (i === 0 ? { ...e, text: `${e.text} (edited)` } : e));
    const result = await verify({ ...exported, examples });
    expect(result.checks.filter((c) => !c.ok).map((c) => c.name)).toEqual(['content hash', 'release hash', 'ledger output hash']);
    expect(result.checks.find((c) => c.name === 'ledger output hash')?.detail).toContain('examples[0].text');
  }, 120_000);

  it('fails the release and ledger output hashes and the counts when the count of examples added is edited', async () => {
    const names = await failed({ ...exported, generated: { ...exported.generated, added: exported.generated.added + 1 } });
    expect(names).toEqual(['release hash', 'generated counts', 'ledger output hash']);
  }, 120_000);

  it('fails the ledger entry check when the ledger entry id is edited', async () => {
    const other = exported.ledger.entryId - 1; // the reservation: an entry, but not a commit
    const result = await verify({ ...exported, ledger: { ...exported.ledger, entryId: other } });
    expect(result.valid).toBe(false);
    expect(result.checks.filter((c) => !c.ok).map((c) => c.name)).toEqual(['ledger entry']);
    expect(await failed({ ...exported, ledger: { ...exported.ledger, entryId: 999_999 } })).toEqual(['ledger entry']);
  }, 120_000);

  it('refuses a run without a certificate and a document that is not one', async () => {
    await expect(callMethod(ctx, 'augment.export', { id: 999 })).rejects.toThrow(/no augmentation run 999/);
    const { examples: _dropped, ...certificateOnly } = exported;
    const result = await verify(certificateOnly);
    expect(result.valid).toBe(false);
    expect(result.checks).toEqual([expect.objectContaining({ name: 'format', ok: false, detail: expect.stringMatching(/^not a veil\.augmentation\/v1 document.*examples/) })]);
  }, 120_000);
});
