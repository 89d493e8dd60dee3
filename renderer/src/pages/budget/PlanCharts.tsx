/**
 * The plan's two charts, each a labelled figure with a text description (read by screen
 * readers and shown as the caption): the ε(δ) privacy curve on a log δ axis, and ε against
 * the number of queries — answering privately vs one synthetic prompt — with the
 * break-even point marked.
 */
import { Box } from '@mui/material';
import { ChartsReferenceLine } from '@mui/x-charts/ChartsReferenceLine';
import { LineChart } from '@mui/x-charts/LineChart';
import { memo } from 'react';
import { Figure } from '../../components/Figure';
import type { PlanResult } from '../../../../electron/shared/api/planner';
import { formatDelta, formatEpsilon } from './ledgerView';
import {
  breakEvenExplanation,
  privacyCurveDescription,
  privacyCurvePoints,
  queryCurveDescription,
  queryCurvePoints,
} from './planCharts';

const HEIGHT = 260;
/** Marker lines are dashed, labelled at the top, to their left (they sit in the right half). */
const marker = { labelAlign: 'start', spacing: { x: -5, y: 5 }, labelStyle: { textAnchor: 'end' }, lineStyle: { strokeDasharray: '4 4' } } as const;
const epsilonAxis = [{ label: 'ε', valueFormatter: (v: number) => formatEpsilon(v) }];

/** Memoised: the charts redraw when a new result arrives, not on every keystroke in the form. */
export const PlanCharts = memo(function PlanCharts({ result }: { result: PlanResult }) {
  const curve = privacyCurvePoints(result);
  const queries = queryCurvePoints(result);
  const breakEven = result.breakEven.queries;
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { lg: '1fr 1fr' } }}>
      <Figure title="Privacy curve ε(δ) of the plan" description={privacyCurveDescription(result)}>
        <LineChart
          height={HEIGHT}
          skipAnimation
          xAxis={[{ data: curve.map((p) => p.delta), scaleType: 'log', label: 'δ (log scale)', valueFormatter: (v: number) => formatDelta(v) }]}
          yAxis={epsilonAxis}
          series={[{ data: curve.map((p) => p.epsilon), label: 'ε(δ)', showMark: false }]}
        >
          <ChartsReferenceLine x={result.delta} label="plan δ" {...marker} />
        </LineChart>
      </Figure>
      <Figure title="ε against the number of queries" description={`${queryCurveDescription(result)} ${breakEvenExplanation(result)}`}>
        <LineChart
          height={HEIGHT}
          skipAnimation
          xAxis={[{ data: queries.map((p) => p.queries), scaleType: 'log', label: 'queries answered (log scale)' }]}
          yAxis={epsilonAxis}
          series={[
            { data: queries.map((p) => p.answering), label: 'private answering', showMark: false },
            { data: queries.map((p) => p.synthetic), label: 'one synthetic prompt', showMark: false },
          ]}
        >
          {breakEven !== null && <ChartsReferenceLine x={breakEven} label={`break-even: ${breakEven.toLocaleString('en-US')} queries`} {...marker} />}
        </LineChart>
      </Figure>
    </Box>
  );
});
