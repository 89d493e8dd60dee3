/**
 * Audits end to end below the UI on the sample e-mails (real SQLite vault, the reference
 * learner): a plain 4-shot prompt of real records leaks (label attack AUROC clearly above
 * ½, its members found), a DP synthetic prompt at ε = 1 does not (AUROC interval contains
 * ½), the one-run canary bound stays below the accounted ε, nothing is charged to the
 * ledger, and the report states it all. Measured numbers are printed for the README.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callMethod } from '../../../electron/services/api';
import { ServiceContext } from '../../../electron/services/context';
import type { AuditRunDto, AuditTargetResult } from '../../../electron/shared/api/audit';
import { sampleDataDir } from '../synthesis/sampleDataDir';
import { allowSeededOnPrivatePath } from '../../../core/random/privatePathRandom';
import { seededRandom } from '../../../core/random/seededRandom';
import { getAuditService } from '../../../electron/services/audit/auditHandlers';

let dir: string;
let ctx: ServiceContext;
let audit: AuditRunDto;
let runId: number;

const score = (t: AuditTargetResult, name: string) => t.scores.find((s) => s.score === name)!.metrics;

beforeAll(async () => {
  const made = await sampleDataDir('veil-audit-');
  dir = made.dir;
  ctx = new ServiceContext(made.data, 'cli');
  // Every draw of the audit (members, bootstrap, canaries, the canary re-run) from a fixed seed;
  // the DP prompt itself comes from the synthesis job's CSPRNG.
  await getAuditService(ctx, allowSeededOnPrivatePath(seededRandom(5), 'test'));
  const synth = await callMethod(ctx, 'synth.start', { dataset: 'mail', epsilon: 1, shots: 4, maxTokens: 24, topK: 50 });
  runId = synth.runId;
  expect((await ctx.jobs.wait(synth.jobId)).status).toBe('succeeded');
  const entriesBefore = (await callMethod(ctx, 'ledger.entries', { dataset: 'mail' })).length;
  const { jobId, auditId } = await callMethod(ctx, 'audit.start', {
    dataset: 'mail',
    targets: [{ kind: 'baseline', shots: 4 }, { kind: 'run', runId }],
    attacks: ['label', 'repeat', 'inquiry'],
    members: 150,
    canaries: 64,
    // 99.9 % intervals of the seeded audit.
    level: 0.999,
  });
  const job = await ctx.jobs.wait(jobId);
  expect(job.error ?? job.status).toBe('succeeded');
  audit = await callMethod(ctx, 'audit.get', { id: auditId });
  expect((await callMethod(ctx, 'ledger.entries', { dataset: 'mail' })).length).toBe(entriesBefore);
}, 900_000);

afterAll(async () => {
  await ctx?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('membership-inference audit of the sample e-mails (reference learner)', () => {
  it('finds the members of a plain 4-shot prompt of real records', () => {
    const baseline = audit.result!.targets[0];
    const label = score(baseline, 'label-probability');
    console.log('baseline', JSON.stringify(baseline.scores.map((s) => ({ s: s.score, auroc: s.metrics.auroc, ci: [s.metrics.aurocInterval.lower, s.metrics.aurocInterval.upper], tpr1: s.metrics.tprAt1, adv: s.metrics.advantage })), null, 0), JSON.stringify(baseline.canary));
    expect(label.members).toBe(152); // whole 4-shot prompts: 38 × 4
    expect(label.aurocInterval.lower).toBeGreaterThan(0.5);
    expect(score(baseline, 'repeat-rouge-l').aurocInterval.lower).toBeGreaterThan(0.5);
    expect(baseline.canary!.epsilonLower).toBeGreaterThan(0.5);
  });

  it('does not find the members of a DP synthetic prompt at ε = 1', () => {
    const dp = audit.result!.targets[1];
    console.log('dp', JSON.stringify(dp.scores.map((s) => ({ s: s.score, auroc: s.metrics.auroc, ci: [s.metrics.aurocInterval.lower, s.metrics.aurocInterval.upper], tpr1: s.metrics.tprAt1 })), null, 0), JSON.stringify(dp.canary), dp.accountedEpsilon);
    const label = score(dp, 'label-probability');
    expect(label.aurocInterval.lower).toBeLessThanOrEqual(0.5);
    expect(label.aurocInterval.upper).toBeGreaterThanOrEqual(0.5);
    expect(dp.accountedEpsilon).toBeLessThanOrEqual(1);
    expect(dp.canary!.epsilonLower).toBeLessThanOrEqual(dp.accountedEpsilon!);
  });

  it('exports a report with the metrics, the empirical and the accounted ε, and no record text', async () => {
    const html = (await callMethod(ctx, 'audit.export', { id: audit.id, format: 'html' })).content;
    expect(html).toContain('Empirical ε ≥');
    expect(html).toContain(`DP synthesis run ${runId}`);
    expect(html).toContain('<svg');
    const json = JSON.parse((await callMethod(ctx, 'audit.export', { id: audit.id, format: 'json' })).content);
    expect(json.format).toBe('veil.audit-report/v1');
    expect(json.result.targets).toHaveLength(2);
    const { rows } = await callMethod(ctx, 'vault.records', { dataset: 'mail', limit: 1000 });
    expect(rows.length).toBeGreaterThan(500);
    const report = html + JSON.stringify(json);
    for (const r of rows) expect(report).not.toContain(r.text.slice(0, 40));
  });

  it('refuses an unknown run and a DP prompt file that is not one, before starting anything', async () => {
    await expect(callMethod(ctx, 'audit.start', { dataset: 'mail', targets: [{ kind: 'run', runId: 999 }] })).rejects.toThrow(/no synthesis run 999/);
    await expect(callMethod(ctx, 'audit.start', { dataset: 'mail', targets: [{ kind: 'dp-prompt', document: '{"a":1}' }] })).rejects.toThrow(/veil.dp-prompt\/v1/);
  });

  it('cancels: the job and the stored audit end cancelled, nothing charged', async () => {
    const before = (await callMethod(ctx, 'ledger.entries', { dataset: 'mail' })).length;
    const { jobId, auditId } = await callMethod(ctx, 'audit.start', { dataset: 'mail', targets: [{ kind: 'baseline', shots: 4 }], attacks: ['repeat'], members: 400 });
    await new Promise<void>((resolve) => {
      const off = ctx.subscribe((event, payload) => event === 'job.progress' && (payload as { jobId: string }).jobId === jobId && (off(), resolve()));
    });
    expect(callMethod(ctx, 'jobs.cancel', { id: jobId })).resolves.toEqual({ cancelled: true });
    expect((await ctx.jobs.wait(jobId)).status).toBe('cancelled');
    expect(await callMethod(ctx, 'audit.get', { id: auditId })).toMatchObject({ status: 'cancelled', result: null });
    expect((await callMethod(ctx, 'ledger.entries', { dataset: 'mail' })).length).toBe(before);
  }, 120_000);
});
