import { describe, expect, it } from 'vitest';
import { auditReportHtml, auditReportJson, REPORT_NOTICE } from '../../../../electron/services/audit/auditReport';
import type { AuditRunDto, AuditTargetResult } from '../../../../electron/shared/api/audit';

const metrics = { members: 10, nonMembers: 40, auroc: 0.75, aurocInterval: { lower: 0.6, upper: 0.9, level: 0.95, replicates: 1000 }, tprAt1: 0.2, tprAt01: 0.1, advantage: 0.4, curve: [{ fpr: 0, tpr: 0 }, { fpr: 1, tpr: 1 }] };
const target = (epsilonLower: number, accounted: number | null): AuditTargetResult => ({
  kind: 'run', name: 'DP synthesis run 3 <b>', accountedEpsilon: accounted, delta: 1e-6, design: 'members: private', skipped: [], canarySkipped: null,
  scores: [{ attack: 'label', score: 'label-probability', metrics }],
  canary: { score: 'label-probability', m: 64, k: 16, guesses: 32, correct: 20, epsilonLower, confidence: 0.95, delta: 1e-6, mechanism: 'run' },
});
const run = (t: AuditTargetResult): AuditRunDto => ({
  id: 7, dataset: 'mail', status: 'succeeded', jobId: 'j', createdAt: '2026-01-01T00:00:00Z', error: null,
  request: { targets: [{ kind: 'run', name: t.name }], attacks: ['label'], members: 10, balance: 'unbalanced', canaries: 64 },
  result: { model: 'reference', targets: [t] },
});

describe('audit report', () => {
  it('states targets, sizes, metrics with intervals, both ε and the notice; escapes names', () => {
    const html = auditReportHtml(run(target(0.4, 1)), new Date(0));
    for (const text of [REPORT_NOTICE, 'DP synthesis run 3 &#60;b&#62;', '10 / 40', '0.750', '0.600 – 0.900 (95.0 %)', '20.0 %', 'Empirical ε ≥ 0.400', 'accounted ε ≤ 1.000', '1:4', '<svg']) expect(html).toContain(text);
    expect(html).not.toContain('<b>');
    expect(html).not.toMatch(/accounting is wrong/);
    expect(JSON.parse(auditReportJson(run(target(0.4, 1))))).toMatchObject({ format: 'veil.audit-report/v1', id: 7 });
  });

  it('says how many queries had their prompt cut to fit the context, and how many were left out', () => {
    expect(auditReportHtml(run(target(0.4, 1)))).not.toMatch(/cut from the left/);
    const fit = { cut: { members: 3, nonMembers: 12 }, leftOut: { members: 1, nonMembers: 0 } };
    const cut = { ...target(0.4, 1), scores: [{ attack: 'label' as const, score: 'label-probability', metrics, fit }] };
    cut.canary = { ...cut.canary!, promptsCut: 5 };
    const html = auditReportHtml(run(cut));
    expect(html).toContain('cut from the left to fit the model’s context (oldest paragraphs first; the query itself is never cut), members / non-members: label 3 / 12; canaries: 5 of 64.');
    expect(html).toContain('Left out because the query alone exceeds the context, members / non-members: label 1 / 0.');
  });

  it('flags a lower bound above the accounted ε', () => {
    expect(auditReportHtml(run(target(1.5, 1)))).toMatch(/exceeds the accounted ε/);
  });
});
