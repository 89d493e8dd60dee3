/**
 * The one-click sample datasets through the API on real SQLite: the synthetic clinic notes
 * (subject-level privacy, PII found on insert, canaries tagged on both sides of the
 * membership line) and the SpamAssassin default.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CLINIC_LABELS } from '../../../core/samples/clinicVocabulary';
import { callMethod } from '../../../electron/services/api';
import { ServiceContext } from '../../../electron/services/context';
import { getVaultService } from '../../../electron/services/vault/vaultHandlers';
import { SAMPLE_DATASETS } from '../../../electron/services/vault/sampleDataset';
import { tempServices, type TempServices } from '../../helpers/services';

let services: TempServices;
let ctx: ServiceContext;
beforeAll(() => {
  services = tempServices('veil-samples-');
  ctx = services.ctx;
});
afterAll(() => services?.remove());

describe('sample datasets', () => {
  it('creates the clinic notes: five departments, privacy unit subject (cap 3), three splits', async () => {
    const clinic = await callMethod(ctx, 'vault.createSample', { kind: 'clinic' });
    expect(clinic).toMatchObject({ name: 'Clinic notes sample', task: 'classification', labels: [...CLINIC_LABELS], privacyUnit: 'subject', subjectCap: 3 });
    expect(clinic.counts.total).toBeGreaterThanOrEqual(1900);
    expect(clinic.counts.private).toBeGreaterThan(clinic.counts.heldOut);
    expect(clinic.counts.heldOut).toBeGreaterThan(clinic.counts.public);
    expect(clinic.counts.public).toBeGreaterThan(100);
  });

  it('finds the patients’ names, phone numbers and dates of birth, and tags the canaries', async () => {
    const stats = await callMethod(ctx, 'vault.stats', { dataset: 'Clinic notes sample' });
    const total = stats.splits.private + stats.splits.public + stats.splits.heldOut;
    const pii = Object.fromEntries(stats.pii.map((p) => [p.kind, p.records]));
    expect(pii.phone).toBe(total);
    expect(pii['date-of-birth']).toBe(total);
    expect(pii['person-name']).toBeGreaterThan(0.95 * total);
    expect(stats.subjects).toBeGreaterThan(350);
    const members = await callMethod(ctx, 'vault.records', { dataset: 'Clinic notes sample', filter: { tags: ['canary'] } });
    const nonMembers = await callMethod(ctx, 'vault.records', { dataset: 'Clinic notes sample', filter: { tags: ['canary-holdout'] } });
    expect(members.total).toBe(10);
    expect(nonMembers.total).toBe(10);
    expect(members.rows.every((r) => r.split === 'private' && r.text.includes('Canary code: '))).toBe(true);
    expect(nonMembers.rows.every((r) => r.split === 'held-out' && r.subject !== null)).toBe(true);
  });

  it('samples the clinic notes by patient', async () => {
    const vault = await getVaultService(ctx);
    const stats = await callMethod(ctx, 'vault.stats', { dataset: 'Clinic notes sample' });
    const pool = await vault.pool(await vault.dataset('Clinic notes sample'), undefined);
    expect(pool.units).toBe(stats.subjects);
  });

  it('creates the clinic summaries: a generation task whose records carry a reference output, split by patient', async () => {
    const summaries = await callMethod(ctx, 'vault.createSample', { kind: 'clinic-summaries' });
    expect(summaries).toMatchObject({ name: 'Clinic summaries sample', task: 'generation', labels: [], privacyUnit: 'subject', subjectCap: 3 });
    expect(summaries.counts.total).toBeGreaterThan(1000);
    expect(summaries.counts.public).toBeGreaterThan(80);
    expect(summaries.counts.heldOut).toBeGreaterThan(summaries.counts.public);
    const heldOut = await callMethod(ctx, 'vault.records', { dataset: summaries.id, filter: { splits: ['held-out'] } });
    expect(heldOut.rows.every((r) => r.split === 'held-out' && r.output !== null && r.output.length > 20 && r.subject !== null)).toBe(true);
  });

  it('keeps SpamAssassin as the default kind and takes a custom name', async () => {
    const spam = await callMethod(ctx, 'vault.createSample', {});
    expect(spam).toMatchObject({ name: 'SpamAssassin sample', labels: ['spam', 'ham'], privacyUnit: 'record' });
    // Sender and recipient headers carry e-mail addresses (and often names) into every record.
    const pii = Object.fromEntries((await callMethod(ctx, 'vault.stats', { dataset: spam.id })).pii.map((p) => [p.kind, p.records]));
    expect(pii.email).toBeGreaterThan(0.95 * spam.counts.total);
    expect(pii['person-name']).toBeGreaterThan(0.2 * spam.counts.total);
    const renamed = await callMethod(ctx, 'vault.createSample', { kind: 'clinic', name: 'Clinic notes (copy)' });
    const original = (await callMethod(ctx, 'vault.listDatasets', {})).find((d) => d.name === 'Clinic notes sample');
    expect(renamed.counts).toEqual(original?.counts);
    await expect(callMethod(ctx, 'vault.createSample', { kind: 'clinic' })).rejects.toThrow(/exists already/);
  }, 60_000);

  it('creates a sample in one transaction: a failure part-way leaves no dataset, and a retry works', async () => {
    const clinic = SAMPLE_DATASETS.clinic;
    const records = clinic.records();
    const broken = vi.spyOn(clinic, 'records').mockReturnValue([...records.slice(0, 50), { ...records[50], label: 'not-a-department' }]);
    await expect(callMethod(ctx, 'vault.createSample', { kind: 'clinic', name: 'Half a sample' })).rejects.toThrow(/not-a-department/);
    expect((await callMethod(ctx, 'vault.listDatasets', {})).map((d) => d.name)).not.toContain('Half a sample');
    broken.mockRestore();
    expect((await callMethod(ctx, 'vault.createSample', { kind: 'clinic', name: 'Half a sample' })).counts.total).toBe(records.length);
  }, 60_000);

  it('re-indexes a pool after another connection (another Veil process) changed its records', async () => {
    const other = new ServiceContext(ctx.dataDir, 'cli');
    try {
      const vault = await getVaultService(ctx);
      const dataset = await vault.dataset('SpamAssassin sample');
      const before = (await vault.pool(dataset, 'spam')).units;
      await callMethod(other, 'vault.addRecords', { dataset: dataset.name, records: [{ text: 'A new offer from another process, act now', label: 'spam', split: 'private' }] });
      expect((await vault.pool(dataset, 'spam')).units).toBe(before + 1);
      const { rows } = await callMethod(other, 'vault.records', { dataset: dataset.name, filter: { labels: ['spam'], splits: ['private'] }, limit: 3 });
      await callMethod(other, 'vault.bulk', { dataset: dataset.name, target: { ids: rows.map((r) => r.id) }, action: { kind: 'delete' } });
      expect((await vault.pool(dataset, 'spam')).units).toBe(before - 2);
    } finally {
      await other.close();
    }
  }, 60_000);
});
