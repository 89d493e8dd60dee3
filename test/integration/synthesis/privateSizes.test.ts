/**
 * Pool sizes are a charged DP release (issue 20 item 1), on a real vault and ledger with the
 * reference learner: a job's certificate states noisy sizes whose release was charged first, as
 * its own ledger entry (named by `sizeLedger`);
 * the certificates of the same job on two datasets that differ by one record differ only in
 * noisy fields (and those computed from them); a dataset whose size the analyst declared
 * public uses exact sizes and says so in the ledger and the certificate; a budget's default δ
 * comes from a charged noisy count, and once the dataset has charges an omitted δ keeps the δ
 * in force without drawing one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changedPaths } from '../../../core/export/canonicalJson';
import { callMethod } from '../../../electron/services/api';
import type { ServiceContext } from '../../../electron/services/context';
import { defaultDelta } from '../../../core/accounting/defaultDelta';
import type { Database, Queryable } from '../../../electron/services/db/database';
import { getLedgerService, LedgerService } from '../../../electron/services/ledger/ledgerService';
import { tempServices, type TempServices } from '../../helpers/services';

let services: TempServices;
let ctx: ServiceContext;
const job = { shots: 2, teachers: 3, perTeacher: 2, topK: 8, maxTokens: 3, epsilon: 2 };
const words = ['invoice', 'meeting', 'prize', 'lunch', 'offer', 'report', 'winner', 'schedule'];
const records = Array.from({ length: 60 }, (_, i) => ({ text: `note ${i}: ${words[i % 8]} ${words[(i * 3) % 8]} ${i}`, label: i % 2 ? 'spam' : 'ham' }));

async function dataset(name: string, extra: number) {
  await callMethod(ctx, 'vault.createDataset', { name, labels: ['spam', 'ham'] });
  await callMethod(ctx, 'vault.addRecords', { dataset: name, records: [...records, ...records.slice(0, extra).map((r) => ({ ...r, text: `${r.text} (added)` }))] });
  await callMethod(ctx, 'budget.set', { dataset: name, epsilon: 20, delta: 1e-5 });
}

async function certify(name: string) {
  const { jobId, runId } = await callMethod(ctx, 'synth.start', { dataset: name, ...job });
  expect((await ctx.jobs.wait(jobId)).status).toBe('succeeded');
  const file = await callMethod(ctx, 'synth.export', { id: runId, format: 'json' });
  const reserved = (await callMethod(ctx, 'ledger.entries', { dataset: name })).filter((e) => e.type === 'reserve');
  return { document: JSON.parse(file.content), text: file.content, reservation: reserved.at(-1)!, before: reserved.at(-2)! };
}

beforeAll(async () => {
  services = tempServices('veil-sizes-');
  ctx = services.ctx;
  await dataset('d', 0);
  await dataset('d-plus-one', 1);
});
afterAll(() => services?.remove());

/** Fields that are noisy, computed from noisy values, or name the run (time, dataset, ledger entry). */
const NOISY_OR_RUN = [
  /^demonstrations/, /^prompt$/,
  /^certificate\.parameters\.pools\[\d+\]\.(units|q)$/, /^certificate\.sampling\.q$/, /^certificate\.event\./, /^certificate\.epsilon\./,
  /^certificate\.parameters\.noise\./, /^certificate\.(contentHash|releaseHash|issuedAt)$/, /^certificate\.(ledger|sizeLedger)\./, /^certificate\.dataset\./,
];

describe('private pool sizes', () => {
  it('a certificate states noisy sizes, charged first as their own entry, and verifies', async () => {
    const { document, text, reservation, before } = await certify('d');
    const c = document.certificate;
    expect(c.poolSizes).toEqual({ kind: 'noisy', mechanism: 'discrete-laplace', scale: 10, l1Sensitivity: 1, epsilon: 0.1 });
    expect(c.publicMetadata).toBeUndefined();
    expect(c.event).toMatchObject({ kind: 'sequence', events: [{ kind: 'pure', epsilon: 0.1 }, {}] });
    // The size release is the reservation just before the job's, committed; the job's holds the rest.
    expect(before).toMatchObject({ event: { kind: 'pure', epsilon: 0.1 }, status: 'committed' });
    expect(reservation.event).toEqual(c.event.events[1]);
    expect(c.sizeLedger.entryId).toBeGreaterThan(before.id);
    expect(c.sizeLedger.entryId).toBeLessThan(reservation.id);
    // q is computed from the noisy sizes the certificate states.
    for (const p of c.parameters.pools) expect(p.q).toBeCloseTo(Math.min(1, (job.teachers * job.perTeacher) / p.units), 12);
    expect(reservation.parameters).toMatchObject({ poolSizes: 'noisy', poolSizeEpsilon: 0.1 });
    const verified = await callMethod(ctx, 'certificate.verify', { document: text });
    expect(verified.checks.filter((x) => !x.ok)).toEqual([]);
    expect(verified.checks.find((x) => x.name === 'pool sizes')?.detail).toMatch(/^noisy: discrete Laplace/);
    expect(verified.checks.find((x) => x.name === 'size ledger entry')?.detail).toMatch(/charged the size release and recorded exactly the stated sizes/);
    // A certificate claiming noisy sizes whose event does not charge them fails.
    const forged = { ...document, certificate: { ...c, event: c.event.events[1] } };
    expect((await callMethod(ctx, 'certificate.verify', { document: JSON.stringify(forged) })).checks.find((x) => x.name === 'pool sizes')?.ok).toBe(false);
  }, 120_000);

  it('the same job on a dataset with one added record gives a certificate differing only in noisy fields', async () => {
    const [a, b] = [(await certify('d')).document, (await certify('d-plus-one')).document];
    const changed = changedPaths(a, b);
    expect(changed.length).toBeGreaterThan(0);
    expect(changed.filter((path) => !NOISY_OR_RUN.some((pattern) => pattern.test(path)))).toEqual([]);
    expect(a.certificate.poolSizes.kind).toBe('noisy');
    expect(b.certificate.poolSizes.kind).toBe('noisy');
  }, 120_000);

  it('a dataset whose size is declared public uses exact sizes, stated in the ledger and the certificate', async () => {
    expect(await callMethod(ctx, 'sizes.get', { dataset: 'd' })).toEqual({ dataset: 'd', sizePublic: false });
    expect(await callMethod(ctx, 'sizes.set', { dataset: 'd', sizePublic: true })).toEqual({ dataset: 'd', sizePublic: true });
    const { document, text, reservation } = await certify('d');
    const c = document.certificate;
    expect(c.poolSizes).toEqual({ kind: 'declared-public' });
    expect(c.parameters.pools.map((p: { units: number }) => p.units)).toEqual([30, 30]);
    expect(c.event.kind).not.toBe('sequence');
    expect(c.sizeLedger).toBeUndefined();
    expect(c.publicMetadata['parameters.pools[].units']).toMatch(/declared the dataset size public/);
    expect(reservation.parameters).toMatchObject({ poolSizes: 'declared-public' });
    const verified = await callMethod(ctx, 'certificate.verify', { document: text });
    expect(verified.valid).toBe(true);
    expect(verified.checks.find((x) => x.name === 'pool sizes')?.detail).toMatch(/declared public/);
    await callMethod(ctx, 'sizes.set', { dataset: 'd', sizePublic: false });
  }, 120_000);

  it("a budget's default δ takes N from a noisy count charged with the budget entry; a declared-public size from the exact count", async () => {
    await callMethod(ctx, 'vault.createDataset', { name: 'e', labels: ['spam', 'ham'] });
    await callMethod(ctx, 'vault.addRecords', { dataset: 'e', records });
    const { budget } = await callMethod(ctx, 'budget.set', { dataset: 'e', epsilon: 5 });
    // δ = defaultDelta(Ñ) = min(1/(10·Ñ), 1e-5): 1e-5 for any plausible noisy count of these 60 records.
    expect(budget.delta).toBe(1e-5);
    const entries = await callMethod(ctx, 'ledger.entries', { dataset: 'e' });
    expect(entries.map((e) => e.type)).toEqual(['budget', 'reserve', 'commit']);
    expect(entries[1]).toMatchObject({ event: { kind: 'pure', epsilon: 0.1 }, status: 'committed', parameters: { poolSizes: 'noisy', poolSizeEpsilon: 0.1 } });
    expect((await callMethod(ctx, 'ledger.summary', { dataset: 'e' })).spent.epsilon.upper).toBeGreaterThan(0.09);
    await callMethod(ctx, 'sizes.set', { dataset: 'e', sizePublic: true });
    const exact = await callMethod(ctx, 'budget.set', { dataset: 'e', epsilon: 5, delta: 1e-9 });
    expect(exact.budget.delta).toBe(1e-9);
    await callMethod(ctx, 'vault.createDataset', { name: 'f', labels: ['spam', 'ham'] });
    await callMethod(ctx, 'vault.addRecords', { dataset: 'f', records });
    await callMethod(ctx, 'sizes.set', { dataset: 'f', sizePublic: true });
    expect((await callMethod(ctx, 'budget.set', { dataset: 'f', epsilon: 5 })).budget.delta).toBe(defaultDelta(records.length));
    expect((await callMethod(ctx, 'ledger.entries', { dataset: 'f' })).map((e) => e.type)).toEqual(['budget']);
  }, 60_000);

  it('once a dataset has charges, a budget change without δ keeps the δ in force and draws no count', async () => {
    // A drawn count's charge would be checked against the cap at the δ it gives: a refusal there
    // would depend on a draw left uncharged. So nothing is drawn, and nothing is charged.
    await callMethod(ctx, 'vault.createDataset', { name: 'g', labels: ['spam', 'ham'] });
    await callMethod(ctx, 'vault.addRecords', { dataset: 'g', records });
    await callMethod(ctx, 'budget.set', { dataset: 'g', epsilon: 5, delta: 1e-4 });
    await callMethod(ctx, 'ledger.record', { dataset: 'g', event: { kind: 'gaussian', sigma: 5, sensitivity: 1 } as never, purpose: 'an earlier release' });
    const before = (await callMethod(ctx, 'ledger.entries', { dataset: 'g' })).length;
    const { budget } = await callMethod(ctx, 'budget.set', { dataset: 'g', epsilon: 6 });
    expect(budget).toMatchObject({ epsilon: 6, delta: 1e-4 });
    expect((await callMethod(ctx, 'ledger.entries', { dataset: 'g' })).slice(before).map((e) => e.type)).toEqual(['budget']);
  }, 60_000);

  it('a charge landing between the service reading the chain and the budget transaction is seen: δ kept, no count drawn', async () => {
    // The keep-or-draw decision is made from the transaction's view: a reservation that lands
    // after any earlier read (here: just before the transaction begins) still keeps the δ.
    await callMethod(ctx, 'vault.createDataset', { name: 'h', labels: ['spam', 'ham'] });
    await callMethod(ctx, 'vault.addRecords', { dataset: 'h', records });
    await callMethod(ctx, 'budget.set', { dataset: 'h', epsilon: 5, delta: 1e-4 });
    const shared = await getLedgerService(ctx);
    let landed = false;
    const racing: Database = Object.create(shared.db, {
      transaction: {
        value: async <T>(work: (tx: Queryable) => Promise<T>): Promise<T> => {
          if (!landed) {
            landed = true;
            await shared.record('h', { kind: 'gaussian', sigma: 5, sensitivity: 1, neighbouring: 'add-remove' }, { purpose: 'a release landing meanwhile' });
          }
          return shared.db.transaction(work);
        },
      },
    });
    const before = (await callMethod(ctx, 'ledger.entries', { dataset: 'h' })).length;
    const { budget } = await new LedgerService(racing, ctx).setBudget('h', { epsilon: 6 });
    expect(landed).toBe(true);
    expect(budget).toMatchObject({ epsilon: 6, delta: 1e-4 });
    expect((await callMethod(ctx, 'ledger.entries', { dataset: 'h' })).slice(before).map((e) => e.type)).toEqual(['reserve', 'commit', 'budget']);
  }, 60_000);

  it('a job whose ε exceeds the cap at a δ below the budget δ is not refused early: at the budget δ it fits and runs', async () => {
    // Calibrated to ε = 2.1 at δ = 1e-10, the job costs ≈ 1.5 at the budget's δ = 1e-5, where
    // the ledger composes: the early refusal (ε alone above the cap) must not apply.
    await callMethod(ctx, 'vault.createDataset', { name: 'k', labels: ['spam', 'ham'] });
    await callMethod(ctx, 'vault.addRecords', { dataset: 'k', records });
    await callMethod(ctx, 'budget.set', { dataset: 'k', epsilon: 2, delta: 1e-5 });
    await expect(callMethod(ctx, 'synth.start', { dataset: 'k', ...job, epsilon: 2.1 })).rejects.toThrow(/exceeds the budget cap of 2 on its own/);
    const { jobId } = await callMethod(ctx, 'synth.start', { dataset: 'k', ...job, epsilon: 2.1, delta: 1e-10 });
    expect((await ctx.jobs.wait(jobId)).status).toBe('succeeded');
    expect((await callMethod(ctx, 'ledger.summary', { dataset: 'k' })).spent.epsilon.upper).toBeLessThanOrEqual(2);
  }, 120_000);
});
