import { describe, expect, it } from 'vitest';
import { comparisonRows, LOG_GRID, tprOnGrid } from '../../../../../renderer/src/pages/audit/auditCharts';
import type { AuditRunDto } from '../../../../../electron/shared/api/audit';

describe('audit chart data', () => {
  const curve = [{ fpr: 0, tpr: 0 }, { fpr: 0, tpr: 0.5 }, { fpr: 0.25, tpr: 0.75 }, { fpr: 1, tpr: 1 }];

  it('resamples a ROC curve as the conservative step on a common FPR grid', () => {
    expect(tprOnGrid(curve, [0, 0.1, 0.25, 0.5, 1])).toEqual([0.5, 0.5, 0.75, 0.75, 1]);
    expect(LOG_GRID[0]).toBeCloseTo(1e-3, 15);
    expect(LOG_GRID.at(-1)).toBeCloseTo(1, 15);
  });

  it('compares targets of every audit by accounted ε, ∞ last', () => {
    const metrics = (auroc: number) => ({ members: 1, nonMembers: 1, auroc, aurocInterval: { lower: 0, upper: 1, level: 0.95, replicates: 100 }, tprAt1: 0.1, tprAt01: 0, advantage: 0, curve });
    const target = (name: string, eps: number | null, auroc: number) => ({ kind: 'run' as const, name, accountedEpsilon: eps, delta: null, design: '', scores: [{ attack: 'label' as const, score: 'label-probability', metrics: metrics(auroc) }], skipped: [], canary: null, canarySkipped: null });
    const audit = { id: 1, result: { model: 'm', targets: [target('baseline', null, 0.9), target('run 2', 1, 0.5)] } } as unknown as AuditRunDto;
    expect(comparisonRows([audit]).map((r) => [r.label, r.auroc])).toEqual([['#1 run 2 (ε 1.00)', 0.5], ['#1 baseline (ε ∞)', 0.9]]);
  });
});
