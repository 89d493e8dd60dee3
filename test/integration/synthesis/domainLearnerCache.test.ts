/**
 * The domain learner is built once per version of the dataset's public split
 * (synthesis/domainLearner.ts, SynthesisSource.publicVersion over the real SQLite vault):
 * 1. reused while the public split is unchanged, whatever happens to the private split;
 * 2. rebuilt after any change to the public split — a new record, a relabel, a move in or
 *    out, a redaction, a deletion — and the new learner knows the new public words;
 * 3. a kept learner writes exactly what a fresh one writes (same seed, same bits);
 * 4. the version is a counter SQLite moves, not the clock: a redaction under a frozen clock
 *    still rebuilds it; a deleted dataset's learners are dropped.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { defaultTemplate } from '../../../core/icl/prompts';
import { seededRandom } from '../../../core/random/seededRandom';
import { callMethod } from '../../../electron/services/api';
import type { ServiceContext } from '../../../electron/services/context';
import { domainLearner } from '../../../electron/services/synthesis/domainLearner';
import type { SynthesisSource } from '../../../electron/services/synthesis/synthesisSource';
import { vaultSource } from '../../../electron/services/synthesis/vaultSource';
import { getVaultService } from '../../../electron/services/vault/vaultHandlers';
import { tempServices, type TempServices } from '../../helpers/services';

let services: TempServices;
let ctx: ServiceContext;
const template = defaultTemplate('Classify each text as one of: a, b.');

beforeAll(async () => {
  services = tempServices('veil-learner-cache-');
  ctx = services.ctx;
  await callMethod(ctx, 'vault.createDataset', { name: 'notes', labels: ['a', 'b'] });
  const records = [
    ...Array.from({ length: 12 }, (_, i) => ({ text: `private note ${i} on the elbow`, label: i % 2 ? 'a' : 'b', split: 'private' as const })),
    ...Array.from({ length: 8 }, (_, i) => ({ text: `public note number ${i} about the knee and the ankle`, label: i % 2 ? 'a' : 'b', split: 'public' as const })),
    { text: 'public note from carol@example.com about the wrist', label: 'a', split: 'public' as const },
  ];
  await callMethod(ctx, 'vault.addRecords', { dataset: 'notes', records });
}, 60_000);
afterAll(() => services?.remove());

const ids = async (split: string) =>
  (await (await getVaultService(ctx)).db.all<{ id: number }>("SELECT id FROM records WHERE split = $split AND text NOT LIKE '%@%' ORDER BY id", { split })).map((r) => r.id);
const learner = async (source?: SynthesisSource) => {
  const s = source ?? (await vaultSource(ctx));
  return domainLearner(s, await s.dataset('notes'), template);
};

describe('the domain learner kept per version of the public split', () => {
  it('is reused while the public split is unchanged, whatever the private split does', async () => {
    const first = await learner();
    expect(await learner()).toBe(first);
    const [privateId] = await ids('private');
    await callMethod(ctx, 'vault.updateRecord', { id: privateId, label: 'a' });
    await callMethod(ctx, 'vault.bulk', { dataset: 'notes', target: { ids: [privateId] }, action: { kind: 'move', split: 'held-out' } });
    expect(await learner()).toBe(first);
    // Another template is another learner.
    const source = await vaultSource(ctx);
    expect(await domainLearner(source, await source.dataset('notes'), defaultTemplate('Sort the notes.'))).not.toBe(first);
  });

  it('is rebuilt after every change to the public split', async () => {
    let previous = await learner();
    const changed = async () => {
      const next = await learner();
      expect(next).not.toBe(previous);
      previous = next;
      return next;
    };
    await callMethod(ctx, 'vault.addRecords', { dataset: 'notes', records: [{ text: 'public note on the meniscus', label: 'b', split: 'public' }] });
    expect((await changed()).tokenizer.pieces).toContain(' meniscus');
    const [publicId] = await ids('public');
    const { label } = (await (await getVaultService(ctx)).db.get<{ label: string }>('SELECT label FROM records WHERE id = $id', { id: publicId }))!;
    await callMethod(ctx, 'vault.updateRecord', { id: publicId, label: label === 'a' ? 'b' : 'a' });
    await changed();
    const [privateId] = await ids('private');
    await callMethod(ctx, 'vault.bulk', { dataset: 'notes', target: { ids: [privateId] }, action: { kind: 'move', split: 'public' } });
    expect((await changed()).tokenizer.pieces).toContain(' elbow');
    await callMethod(ctx, 'vault.bulk', { dataset: 'notes', target: { ids: [privateId] }, action: { kind: 'move', split: 'private' } });
    expect((await changed()).tokenizer.pieces).not.toContain(' elbow');
    const [withEmail] = await (await getVaultService(ctx)).db.all<{ id: number }>("SELECT id FROM records WHERE text LIKE '%@%'");
    await callMethod(ctx, 'vault.redact', { id: withEmail.id });
    expect((await changed()).tokenizer.pieces.some((p) => p.includes('carol'))).toBe(false);
    await callMethod(ctx, 'vault.bulk', { dataset: 'notes', target: { ids: [publicId] }, action: { kind: 'delete' } });
    await changed();
  });

  it('is rebuilt after a redaction made within the same millisecond as the insert (the clock never moves)', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-01-01T00:00:00.000Z') });
    try {
      await callMethod(ctx, 'vault.createDataset', { name: 'frozen', labels: ['a', 'b'] });
      await callMethod(ctx, 'vault.addRecords', {
        dataset: 'frozen',
        records: [
          { text: 'public note from dave@example.com about the shoulder', label: 'a', split: 'public' },
          { text: 'public note about the hip', label: 'b', split: 'public' },
        ],
      });
      const source = await vaultSource(ctx);
      const before = await domainLearner(source, await source.dataset('frozen'), template);
      expect(before.tokenizer.pieces.some((p) => p.includes('dave'))).toBe(true);
      const [withEmail] = await (await getVaultService(ctx)).db.all<{ id: number }>("SELECT id FROM records WHERE text LIKE '%dave@%'");
      await callMethod(ctx, 'vault.redact', { id: withEmail.id });
      const after = await domainLearner(source, await source.dataset('frozen'), template);
      expect(after).not.toBe(before);
      expect(after.tokenizer.pieces.some((p) => p.includes('dave'))).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it("drops a deleted dataset's learners", async () => {
    await callMethod(ctx, 'vault.createDataset', { name: 'gone', labels: ['a', 'b'] });
    await callMethod(ctx, 'vault.addRecords', { dataset: 'gone', records: [{ text: 'public note about the heel', label: 'a', split: 'public' }] });
    const inner = await vaultSource(ctx);
    // A version that never moves: only the deletion can drop the kept learner.
    const source: SynthesisSource = { ...inner, publicVersion: async () => 'fixed' };
    const dataset = await source.dataset('gone');
    const kept = await domainLearner(source, dataset, template);
    expect(await domainLearner(source, dataset, template)).toBe(kept);
    await callMethod(ctx, 'vault.deleteDataset', { dataset: 'gone', compact: false });
    expect(await domainLearner(source, dataset, template)).not.toBe(kept);
  });

  it('writes exactly what a freshly built learner writes', async () => {
    const kept = await learner();
    expect(await learner()).toBe(kept);
    const inner = await vaultSource(ctx);
    const fresh = await learner({ dataset: inner.dataset, pool: inner.pool, examples: inner.examples }); // no publicVersion: never kept
    expect(fresh).not.toBe(kept);
    for (const prompt of [`${template.instruction}\n\nLabel: a\nText: public`, `${template.instruction}\n\nText: the knee\nLabel:`]) {
      const bits = async (model: typeof kept) => {
        const { probs } = await model.nextTokenDistribution(prompt);
        return Buffer.from(probs.buffer, probs.byteOffset, probs.byteLength);
      };
      expect((await bits(kept)).equals(await bits(fresh))).toBe(true);
      const write = (model: typeof kept) => model.generate(prompt, { maxTokens: 12, temperature: 1, random: seededRandom('same') });
      expect(await write(kept)).toEqual(await write(fresh));
    }
  });
});
