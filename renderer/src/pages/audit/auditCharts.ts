/**
 * Chart data for the Audit page: ROC curves resampled on a common FPR grid (MUI X line
 * charts share one x axis) — linear 0…1 and logarithmic 10⁻³…1 — as the conservative step
 * (the best TPR among thresholds whose FPR is at most x), and the comparison of targets.
 */
import type { AuditRunDto, AuditTargetResult } from '../../../../electron/shared/api/audit';

type Curve = readonly { fpr: number; tpr: number }[];

export const LINEAR_GRID = Array.from({ length: 101 }, (_, i) => i / 100);
export const LOG_GRID = Array.from({ length: 61 }, (_, i) => 10 ** (-3 + i / 20));

export function tprOnGrid(curve: Curve, grid: readonly number[]): number[] {
  return grid.map((x) => curve.reduce((best, p) => (p.fpr <= x + 1e-12 ? Math.max(best, p.tpr) : best), 0));
}

export interface RocSeries {
  label: string;
  curve: Curve;
}

/** One series per target and score. */
export function rocSeries(targets: readonly AuditTargetResult[]): RocSeries[] {
  return targets.flatMap((t) => t.scores.map((s) => ({ label: `${t.name}: ${s.score} (AUROC ${s.metrics.auroc.toFixed(2)})`, curve: s.metrics.curve })));
}

export const epsilonText = (e: number | null) => (e === null ? '∞' : e.toFixed(2));

export interface ComparisonRow {
  label: string;
  epsilon: number | null;
  auroc: number;
  tprAt1: number;
}

/** Every stored audit's targets, by their first score (the label attack where it ran), sorted by accounted ε (∞ last). */
export function comparisonRows(audits: readonly AuditRunDto[]): ComparisonRow[] {
  const rows = audits.flatMap((a) =>
    (a.result?.targets ?? []).flatMap((t) => {
      const s = t.scores[0];
      return s ? [{ label: `#${a.id} ${t.name} (ε ${epsilonText(t.accountedEpsilon)})`, epsilon: t.accountedEpsilon, auroc: s.metrics.auroc, tprAt1: s.metrics.tprAt1 }] : [];
    }),
  );
  return rows.sort((x, y) => (x.epsilon ?? Infinity) - (y.epsilon ?? Infinity));
}
