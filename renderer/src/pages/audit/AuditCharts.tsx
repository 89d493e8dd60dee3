/** ROC curves of one audit (linear and log axes, random-guess line) and the comparison of past audits. */
import { Box } from '@mui/material';
import { BarChart } from '@mui/x-charts/BarChart';
import { LineChart } from '@mui/x-charts/LineChart';
import { memo } from 'react';
import type { AuditRunDto, AuditTargetResult } from '../../../../electron/shared/api/audit';
import { Figure } from '../../components/Figure';
import { comparisonRows, LINEAR_GRID, LOG_GRID, rocSeries, tprOnGrid } from './auditCharts';

const HEIGHT = 300;

function Roc({ targets, log }: { targets: readonly AuditTargetResult[]; log: boolean }) {
  const grid = log ? LOG_GRID : LINEAR_GRID;
  const series = rocSeries(targets);
  return (
    <LineChart
      height={HEIGHT}
      skipAnimation
      xAxis={[{ data: grid, scaleType: log ? 'log' : 'linear', label: log ? 'false positive rate (log)' : 'false positive rate', min: log ? 1e-3 : 0, max: 1 }]}
      yAxis={[{ scaleType: log ? 'log' : 'linear', label: 'true positive rate', min: log ? 1e-3 : 0, max: 1 }]}
      series={[
        ...series.map((s) => ({ data: tprOnGrid(s.curve, grid).map((y) => (log ? Math.max(y, 1e-3) : y)), label: s.label, showMark: false })),
        { data: [...grid], label: 'random guess', showMark: false, color: '#9e9e9e' },
      ]}
    />
  );
}

export const RocCharts = memo(function RocCharts({ targets }: { targets: readonly AuditTargetResult[] }) {
  const summary = targets.flatMap((t) => t.scores.map((s) => `${t.name}, ${s.score}: AUROC ${s.metrics.auroc.toFixed(3)}`)).join('; ');
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { lg: '1fr 1fr' } }}>
      <Figure title="ROC curves, linear axes" description={`${summary}. The grey diagonal is a random guess.`}>
        <Roc targets={targets} log={false} />
      </Figure>
      <Figure title="ROC curves, log axes" description="The low-FPR region, where a membership claim is confident (TPR below 10⁻³ is drawn at 10⁻³).">
        <Roc targets={targets} log />
      </Figure>
    </Box>
  );
});

export const ComparisonChart = memo(function ComparisonChart({ audits }: { audits: readonly AuditRunDto[] }) {
  const rows = comparisonRows(audits);
  if (rows.length === 0) return null;
  return (
    <Figure title="Targets compared: AUROC and TPR at 1 % FPR against the accounted ε" description={rows.map((r) => `${r.label}: AUROC ${r.auroc.toFixed(3)}, TPR@1% ${(100 * r.tprAt1).toFixed(1)} %`).join('; ')}>
      <BarChart
        height={HEIGHT}
        skipAnimation
        xAxis={[{ data: rows.map((r) => r.label), scaleType: 'band' }]}
        yAxis={[{ min: 0, max: 1 }]}
        series={[
          { data: rows.map((r) => r.auroc), label: 'AUROC' },
          { data: rows.map((r) => r.tprAt1), label: 'TPR @ 1 % FPR' },
        ]}
      />
    </Figure>
  );
});
