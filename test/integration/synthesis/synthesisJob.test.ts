/**
 * Synthesis end to end below the UI: real SQLite vault and ledger, the reference learner,
 * the PLD accountant. Two entries per job — the noisy pool sizes charged first, on their own,
 * then the job's reservation, which equals what the planner prices — a job refused after the
 * size draw keeping the size entry, refusal before any draw without a write, the certificate
 * matching both entries and detecting edits, cancellation keeping the charge, and no private
 * record text in anything the process prints.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { callMethod } from '../../../electron/services/api';
import type { ServiceContext } from '../../../electron/services/context';
import { capturePrinted, mailDataDir, type MailDataDir } from '../../helpers/mailDataset';
import { loadReferenceLearner } from '../../../electron/services/model/referenceResources';
import { startOpenAiTestServer } from '../model/openaiTestServer';
import { sizeReleaseHash } from '../../../core/icl/noisyPoolSizes';
import { pureDp, sequence } from '../../../core/accounting/events';
import { synthesisRequestSchema } from '../../../electron/shared/api/synthesis';
import { planRequestSchema } from '../../../electron/shared/api/planner';
import { getSynthesisService } from '../../../electron/services/synthesis/synthesisHandlers';
import { priceSynthesis } from '../../../electron/services/synthesis/synthesisPricing';
import { computePlan } from '../../../electron/services/planner/computePlan';

let mail: MailDataDir;
let ctx: ServiceContext;
const printed: string[] = [];

const small = { dataset: 'mail', shots: 2, teachers: 4, perTeacher: 2, topK: 12, maxTokens: 6, epsilon: 3 };

beforeAll(async () => {
  mail = await mailDataDir('veil-synth-', { epsilon: 8, delta: 1e-5 });
  ctx = mail.ctx;
  capturePrinted(printed);
});
afterAll(async () => {
  vi.restoreAllMocks();
  await mail.remove();
});

const reservations = async () => (await callMethod(ctx, 'ledger.entries', { dataset: 'mail' })).filter((e) => e.type === 'reserve');

describe('synthesis job', () => {
  it('prices a job: calibrated noise whose ε upper bound meets the target', async () => {
    const plan = await callMethod(ctx, 'synth.plan', small);
    expect(plan.noise.kind).toBe('gaussian');
    expect(plan.epsilon.upper).toBeLessThanOrEqual(3);
    expect(plan.epsilon.upper).toBeGreaterThan(3 * 0.99);
    expect(plan.pools.map((p) => p.label)).toEqual(['spam', 'ham']);
    // The job reserves its token steps; the release of the two pool sizes (noisy counts, pure
    // ε = 0.1) is its own entry before it, and ε is what both cost together.
    expect(plan.event).toMatchObject({ kind: 'composed', count: 6 });
    expect(plan.sizeEpsilon).toBe(0.1);
    expect(plan.totalEvent).toEqual(sequence([pureDp(0.1), plan.event]));
    expect(plan.budget).toMatchObject({ cap: 8, spent: 0 });
  });

  it('runs with two entries, the size release first, commits, and certifies what the ledger recorded', async () => {
    const before = (await callMethod(ctx, 'ledger.entries', { dataset: 'mail' })).length;
    const { jobId, runId } = await callMethod(ctx, 'synth.start', small);
    expect((await ctx.jobs.wait(jobId)).status).toBe('succeeded');
    const entries = await callMethod(ctx, 'ledger.entries', { dataset: 'mail' });
    const added = entries.slice(before);
    // Size release: reserved, drawn, committed — then the job's reservation and its commit.
    expect(added.map((e) => e.type)).toEqual(['reserve', 'commit', 'reserve', 'commit']);
    const [sizeReservation, sizeCommit, reservation, commit] = added;
    expect(sizeReservation).toMatchObject({ event: { kind: 'pure', epsilon: 0.1 }, status: 'committed', parameters: { poolSizes: 'noisy', poolSizeEpsilon: 0.1 } });
    const run = await callMethod(ctx, 'synth.get', { id: runId });
    expect(run.status).toBe('succeeded');
    const doc = run.document!;
    const c = doc.certificate;
    expect(doc.demonstrations.map((d) => d.label)).toEqual(['spam', 'ham']);
    expect(c.sizeLedger).toEqual({ entryId: sizeCommit.id, entryHash: sizeCommit.entryHash });
    const units = (c.parameters.pools as { units: number }[]).map((p) => p.units);
    expect(sizeCommit.outputHash).toBe(await sizeReleaseHash(units));
    expect(commit).toMatchObject({ id: c.ledger.entryId, type: 'commit', reservationId: reservation.id, entryHash: c.ledger.entryHash, outputHash: c.releaseHash });
    expect(c.event).toEqual(sequence([sizeReservation.event!, reservation.event!]));
    expect(reservation.status).toBe('committed');
    expect(reservation.parameters).toMatchObject({ poolSizes: 'noisy', poolSizeEpsilon: 0.1 });

    // The job's reservation is what pricing from the released sizes gives (synth.plan's `event`),
    // and the planner prices both entries of such a job together.
    const { dataset } = await (await getSynthesisService(ctx)).pools('mail');
    const released = new Map((c.parameters.pools as { label: string; units: number }[]).map((p) => [p.label, p.units]));
    const request = synthesisRequestSchema.parse({ ...small, delta: c.delta });
    expect(priceSynthesis(request, dataset, released, null, 240, true).plan.event).toEqual(reservation.event);
    const { dataset: _name, epsilon, delta, maxExampleChars: _chars, ...shape } = request;
    const planned = computePlan(planRequestSchema.parse({ dataset: 'mail', epsilon, delta, workload: { kind: 'synth', ...shape } }), { dataset, poolUnits: released, units: 240, budget: null });
    expect(planned.event).toEqual(sequence([sizeReservation.event!, reservation.event!]));

    const file = await callMethod(ctx, 'synth.export', { id: runId, format: 'json' });
    const verified = await callMethod(ctx, 'certificate.verify', { document: file.content });
    expect(verified.checks.filter((c) => !c.ok)).toEqual([]);
    expect(verified.valid).toBe(true);
    const edited = JSON.parse(file.content);
    edited.demonstrations[0].text += ' (edited)';
    expect((await callMethod(ctx, 'certificate.verify', { document: JSON.stringify(edited) })).valid).toBe(false);

    const markdown = await callMethod(ctx, 'synth.export', { id: runId, format: 'markdown' });
    expect(markdown.content).toContain(doc.prompt.trimEnd());
  }, 60_000);

  it('prices only the chosen public labels, and refuses a label outside the set', async () => {
    const plan = await callMethod(ctx, 'synth.plan', { ...small, labels: ['ham'] });
    expect(plan.pools).toMatchObject([{ label: 'ham', demonstrations: 2 }]);
    await expect(callMethod(ctx, 'synth.plan', { ...small, labels: ['ham', 'phishing'] })).rejects.toThrow(/not in the public label set of "mail": phishing/);
    // Fewer shots than labels: the label left out is named.
    const one = await callMethod(ctx, 'synth.plan', { ...small, shots: 1 });
    expect(one.pools.map((p) => p.label)).toEqual(['spam']);
    expect(one.warnings).toContain('1 shots over 2 labels: ham gets no demonstration (raise the shots to 2 or more, or choose fewer labels)');
    expect((await callMethod(ctx, 'synth.plan', small)).warnings.some((w) => w.includes('no demonstration'))).toBe(false);
  });

  it('refuses, before drawing any size, a job whose ε alone exceeds the cap: nothing written', async () => {
    const before = await callMethod(ctx, 'ledger.entries', { dataset: 'mail' });
    await expect(callMethod(ctx, 'synth.start', { ...small, epsilon: 50 })).rejects.toThrow(/exceeds the budget cap of 8 on its own/);
    expect(await callMethod(ctx, 'ledger.entries', { dataset: 'mail' })).toEqual(before);
  });

  it('keeps the size release charged when the job priced from it is refused over budget', async () => {
    // ≈ 3 spent of 8: the size release fits, the job at ε = 7.9 does not (ε alone is under the cap).
    const before = await callMethod(ctx, 'ledger.entries', { dataset: 'mail' });
    await expect(callMethod(ctx, 'synth.start', { ...small, epsilon: 7.9 })).rejects.toThrow(/budget|cap/i);
    const added = (await callMethod(ctx, 'ledger.entries', { dataset: 'mail' })).slice(before.length);
    expect(added.map((e) => e.type)).toEqual(['reserve', 'commit']);
    expect(added[0]).toMatchObject({ event: { kind: 'pure', epsilon: 0.1 }, status: 'committed', parameters: { poolSizes: 'noisy' } });
    expect(added[1]).toMatchObject({ reservationId: added[0].id, outputHash: expect.stringMatching(/^[0-9a-f]{64}$/) as string });
    const summary = await callMethod(ctx, 'ledger.summary', { dataset: 'mail' });
    expect(summary.reservations).toMatchObject({ reserved: 0, orphaned: 0 });
  });

  it('keeps a cancelled job charged', async () => {
    const { jobId, runId } = await callMethod(ctx, 'synth.start', { ...small, epsilon: 1, maxTokens: 64, shots: 4 });
    await callMethod(ctx, 'jobs.cancel', { id: jobId });
    expect((await ctx.jobs.wait(jobId)).status).toBe('cancelled');
    const run = await callMethod(ctx, 'synth.get', { id: runId });
    expect(run.status).toBe('cancelled');
    expect(run.error).toMatch(/stays spent/);
    const last = (await reservations()).at(-1)!;
    expect(last.status).toBe('orphaned');
    const summary = await callMethod(ctx, 'ledger.summary', { dataset: 'mail' });
    expect(summary.reservations.orphaned).toBe(1);
  }, 60_000);

  it('certifies the model that generated, even when the analyst switches backends while the job runs', async () => {
    const server = await startOpenAiTestServer(await loadReferenceLearner());
    try {
      await callMethod(ctx, 'model.useRemote', { baseUrl: server.baseUrl, model: 'reference' });
      let switched: Promise<unknown> | undefined;
      const off = ctx.subscribe((event) => {
        if (event === 'synth.progress') switched ??= callMethod(ctx, 'model.useReference', {});
      });
      const { jobId, runId } = await callMethod(ctx, 'synth.start', small);
      const job = await ctx.jobs.wait(jobId);
      off();
      await switched;
      expect(job.status).toBe('succeeded');
      expect((await callMethod(ctx, 'model.status', {})).active.backend).toBe('reference');
      const run = await callMethod(ctx, 'synth.get', { id: runId });
      expect(run.document?.certificate.model).toEqual({ backend: 'openai-compatible', name: 'reference', sha256: null });
    } finally {
      await callMethod(ctx, 'model.useReference', {});
      await server.close();
    }
  });

  it('refuses, before reserving, a K above the top tokens a server returns per request', async () => {
    const server = await startOpenAiTestServer(await loadReferenceLearner(), { maxLogprobs: 5 });
    try {
      await callMethod(ctx, 'model.useRemote', { baseUrl: server.baseUrl, model: 'reference' });
      const before = await callMethod(ctx, 'ledger.entries', { dataset: 'mail' });
      await expect(callMethod(ctx, 'synth.start', { ...small, topK: 6 })).rejects.toThrow(/K = 6 candidates, but this server returns at most 5 top tokens per request/);
      expect(await callMethod(ctx, 'ledger.entries', { dataset: 'mail' })).toEqual(before);
    } finally {
      await callMethod(ctx, 'model.useReference', {});
      await server.close();
    }
  });

  it('keeps a remote server\'s error text, which may quote the private prompt, out of the run and the job record', async () => {
    const server = await startOpenAiTestServer(await loadReferenceLearner());
    try {
      await callMethod(ctx, 'model.useRemote', { baseUrl: server.baseUrl, model: 'reference' });
      server.rejectPrompts();
      const { jobId, runId } = await callMethod(ctx, 'synth.start', small);
      const job = await ctx.jobs.wait(jobId);
      expect(job.status).toBe('failed');
      const run = await callMethod(ctx, 'synth.get', { id: runId });
      expect(run.error).toMatch(/^the remote model server answered HTTP 400 \(its explanation is not kept: it may quote the private prompt\); the reserved budget stays spent/);
      // The utility check sends held-out records to the same server: its refusal is kept out too.
      const [released] = (await callMethod(ctx, 'synth.list', { dataset: 'mail' })).filter((r) => r.status === 'succeeded');
      const check = await ctx.jobs.wait((await callMethod(ctx, 'synth.evaluate', { id: released.id, limit: 10 })).jobId);
      expect(check).toMatchObject({ status: 'failed', error: expect.stringMatching(/^the remote model server answered HTTP 400/) as string });
      const stored = JSON.stringify({ job, run, check, jobs: await ctx.jobs.list() });
      expect(stored).not.toMatch(/too long/);
      for (const text of mail.privateTexts.filter((t) => t.length >= 40)) expect(stored).not.toContain(text.slice(0, 40));
    } finally {
      await callMethod(ctx, 'model.useReference', {});
      await server.close();
    }
  });

  it('checks utility on the held-out split and prints no private text', async () => {
    const [run] = (await callMethod(ctx, 'synth.list', { dataset: 'mail' })).filter((r) => r.status === 'succeeded');
    const { jobId } = await callMethod(ctx, 'synth.evaluate', { id: run.id, limit: 40 });
    expect((await ctx.jobs.wait(jobId)).status).toBe('succeeded');
    const { utility } = await callMethod(ctx, 'synth.get', { id: run.id });
    expect(utility).toMatchObject({ metric: 'accuracy', examples: 40 });
    // Accuracies over the 40 held-out examples: each is k/40 for a whole k in 0…40.
    for (const x of [utility!.synthetic, utility!.zeroShot, utility!.realPublic!]) {
      const correct = x * 40;
      expect(correct).toBeCloseTo(Math.round(correct), 9);
      expect(correct).toBeGreaterThanOrEqual(0);
      expect(correct).toBeLessThanOrEqual(40);
    }
    const output = printed.join('\n');
    for (const text of mail.privateTexts) expect(output.includes(text.slice(0, 60))).toBe(false);
  }, 120_000);
});
