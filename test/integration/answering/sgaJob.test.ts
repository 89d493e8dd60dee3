/**
 * Public-data-assisted answering end to end below the UI (issue 15): real SQLite vault and
 * ledger, the reference learner. SGA is the default for a generation dataset with public
 * examples; its one reservation equals the planner's event for the same settings at the
 * released noisy size; candidates and answers are public texts (never a private record's
 * words); the certificate verifies; out-of-distribution public examples serve a dataset with
 * none; keyword aggregation records whether it used public data; SGA without public examples
 * is refused before anything is written; evaluation mode scores SGA with ROUGE-L.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pureDp, sequence } from '../../../core/accounting/events';
import { answeringEvent } from '../../../core/planning/answering';
import { callMethod } from '../../../electron/services/api';
import type { ServiceContext } from '../../../electron/services/context';
import { tempServices, type TempServices } from '../../helpers/services';

let services: TempServices;
let ctx: ServiceContext;

const SYMPTOMS = ['fever', 'cough', 'headache', 'rash', 'nausea', 'fatigue', 'dizziness', 'back pain'];
const note = (i: number, marker: string) => ({
  text: `Patient ${marker}${i} reports ${SYMPTOMS[i % 8]} and ${SYMPTOMS[(i * 3 + 1) % 8]} since ${1 + (i % 6)} days.`,
  output: `${SYMPTOMS[i % 8]}, ${SYMPTOMS[(i * 3 + 1) % 8]}; review in clinic ${marker}`,
});
/** A word only private records hold: it may never be released. */
const SECRET = 'zqprivatemark';

const small = { epsilon: 3, ensemble: 6, shots: 2, sgaDepth: 2, sgaCandidates: 3, maxTokens: 16 };
const queries = ['Patient reports fever and cough since 2 days.', 'Patient reports rash and nausea since 4 days.'];

beforeAll(async () => {
  services = tempServices('veil-sga-');
  ctx = services.ctx;
  await callMethod(ctx, 'vault.createDataset', { name: 'notes', task: 'generation' });
  await callMethod(ctx, 'vault.addRecords', {
    dataset: 'notes',
    records: [
      ...Array.from({ length: 80 }, (_, i) => ({ ...note(i, SECRET), split: 'private' as const })),
      ...Array.from({ length: 12 }, (_, i) => ({ ...note(i + 100, 'pub'), split: 'public' as const })),
      ...Array.from({ length: 6 }, (_, i) => ({ ...note(i + 200, 'held'), split: 'held-out' as const })),
    ],
  });
  await callMethod(ctx, 'budget.set', { dataset: 'notes', epsilon: 40, delta: 1e-5 });
  await callMethod(ctx, 'vault.createDataset', { name: 'no-public', task: 'generation' });
  await callMethod(ctx, 'vault.addRecords', { dataset: 'no-public', records: Array.from({ length: 40 }, (_, i) => note(i + 300, SECRET)) });
  await callMethod(ctx, 'budget.set', { dataset: 'no-public', epsilon: 40, delta: 1e-5 });
});
afterAll(() => services?.remove());

async function answered(request: Parameters<typeof callMethod<'ask.start'>>[2]) {
  const { jobId, runId } = await callMethod(ctx, 'ask.start', request);
  const job = await ctx.jobs.wait(jobId);
  expect(job.error ?? null).toBeNull();
  return callMethod(ctx, 'ask.get', { id: runId });
}

describe('SGA answering job', () => {
  it('is the default for a generation dataset with public examples, priced in ρ', async () => {
    const plan = await callMethod(ctx, 'ask.plan', { dataset: 'notes', ...small, queries });
    expect(plan.aggregation).toBe('sga');
    expect(plan.noise.kind).toBe('sga');
    expect(plan.epsilon.upper).toBeLessThanOrEqual(3);
    expect((await callMethod(ctx, 'ask.plan', { dataset: 'no-public', ...small, queries })).aggregation).toBe('embedding');
  });

  it('charges the planner’s event; candidates are public texts; the certificate verifies', async () => {
    const run = await answered({ dataset: 'notes', ...small, queries, sgaSelection: 'model' });
    const doc = run.document!;
    const c = doc.certificate;
    expect(c.mechanism).toBe('sga');
    const rho = (c.parameters.noise as { rho: number }).rho;
    // The batch's reservation is the planner's event at the released size, charged after the size's own entry.
    const planned = answeringEvent({ ensemble: 6, shots: 2, aggregation: 'sga', sgaDepth: 2 }, c.parameters.units as number, rho, 2);
    expect(c.event).toEqual(sequence([pureDp(0.1), planned]));
    const reservation = (await callMethod(ctx, 'ledger.entries', { dataset: 'notes' })).filter((e) => e.type === 'reserve').at(-1)!;
    expect(reservation.event).toEqual(planned);
    expect(c.parameters).toMatchObject({ sgaDepth: 2, sgaCandidates: 3, sgaSelection: 'model', publicExamples: 12 });
    for (const a of doc.answers) {
      expect(a.candidates!.length).toBeGreaterThan(0);
      expect(a.candidates![a.selected!]).toBe(a.answer);
      expect(JSON.stringify(a)).not.toContain(SECRET);
    }
    const file = await callMethod(ctx, 'ask.export', { id: run.id });
    const verified = await callMethod(ctx, 'certificate.verify', { document: file.content });
    expect(verified.checks.filter((x) => !x.ok)).toEqual([]);
    expect(verified.checks.map((x) => x.name)).toContain('sga candidates');
    const edited = JSON.parse(file.content);
    edited.answers[0].selected = edited.answers[0].candidates.length; // names no candidate
    expect((await callMethod(ctx, 'certificate.verify', { document: JSON.stringify(edited) })).valid).toBe(false);
  }, 300_000);

  it('refuses SGA without public examples before writing anything, then runs on another dataset’s public split', async () => {
    const before = await callMethod(ctx, 'ledger.entries', { dataset: 'no-public' });
    await expect(callMethod(ctx, 'ask.start', { dataset: 'no-public', ...small, aggregation: 'sga', queries })).rejects.toThrow(/needs public examples/);
    expect(await callMethod(ctx, 'ledger.entries', { dataset: 'no-public' })).toEqual(before);
    await callMethod(ctx, 'publicSource.set', { dataset: 'no-public', from: 'notes' });
    const run = await answered({ dataset: 'no-public', ...small, queries: queries.slice(0, 1), sgaSelection: 'nearest' });
    expect(run.aggregation).toBe('sga');
    expect(run.document!.certificate.parameters).toMatchObject({ publicExamples: 12, sgaSelection: 'nearest' });
    expect(JSON.stringify(run.document!.answers)).not.toContain(SECRET);
  }, 300_000);

  it('keyword aggregation records whether it used public data (on by default with public examples)', async () => {
    const withPublic = await answered({ dataset: 'notes', ...small, aggregation: 'keyword', queries: queries.slice(0, 1) });
    expect(withPublic.document!.certificate.parameters).toMatchObject({ publicData: true, publicExamples: 12 });
    const without = await answered({ dataset: 'notes', ...small, aggregation: 'keyword', publicData: false, queries: queries.slice(0, 1) });
    expect(without.document!.certificate.parameters).toMatchObject({ publicData: false });
    await expect(callMethod(ctx, 'ask.plan', { dataset: 'notes', ...small, aggregation: 'embedding', publicData: true, queries })).rejects.toThrow(/publicData applies to keyword and ptr/);
  }, 300_000);

  it('evaluation mode scores SGA with ROUGE-L beside zero-shot and ε = ∞', async () => {
    const run = await answered({ dataset: 'notes', ...small, evaluate: 3 });
    expect(run.aggregation).toBe('sga');
    expect(run.evaluation).toMatchObject({ metric: 'rouge-l', examples: 3 });
    for (const key of ['private', 'zeroShot', 'nonPrivate'] as const) expect(run.evaluation![key]).toBeGreaterThanOrEqual(0);
  }, 300_000);
});
