/**
 * The dataset's charts (@mui/x-charts): label distribution per split, split sizes, and how
 * many records carry each kind of PII finding. Each chart is a named figure.
 */
import { Stack, Typography } from '@mui/material';
import { BarChart } from '@mui/x-charts/BarChart';
import { Figure } from '../../components/Figure';
import { formatCount } from '../../components/format';
import { labelRows, splitName, splitRows, type VaultStats } from './chartData';

const HEIGHT = 200;
/** Many labels: every one shown, slanted so they fit. */
const SLANTED = { tickLabelStyle: { angle: -35, textAnchor: 'end', fontSize: 11 }, height: 70 } as const;
const counted = (v: number | null) => formatCount(v ?? 0);
/** Side by side while they fit, each at least 280 px wide. */
const TILE = { flex: '1 1 300px', minWidth: 280 };

export function DatasetCharts({ stats }: { stats: VaultStats }) {
  const labels = labelRows(stats);
  return (
    <Stack direction="row" useFlexGap spacing={2} sx={{ flexWrap: 'wrap' }}>
      <Figure title="Label distribution per split" sx={TILE}>
        {labels.length === 0 ? (
          <Typography variant="body2" color="text.secondary">No records yet.</Typography>
        ) : (
          <BarChart
            height={HEIGHT}
            dataset={labels}
            xAxis={[{ scaleType: 'band', dataKey: 'label', tickLabelInterval: () => true, ...(labels.length > 3 ? SLANTED : {}) }]}
            series={[
              { dataKey: 'private', label: splitName.private, valueFormatter: counted },
              { dataKey: 'public', label: splitName.public, valueFormatter: counted },
              { dataKey: 'heldOut', label: splitName['held-out'], valueFormatter: counted },
            ]}
          />
        )}
      </Figure>
      <Figure title="Split sizes" sx={TILE}>
        <BarChart height={HEIGHT} dataset={splitRows(stats)} xAxis={[{ scaleType: 'band', dataKey: 'split' }]} series={[{ dataKey: 'records', label: 'Records', valueFormatter: counted }]} hideLegend />
      </Figure>
      <Figure title="Records with PII, by kind" sx={TILE}>
        {stats.pii.length === 0 ? (
          <Typography variant="body2" color="text.secondary">No personal data found.</Typography>
        ) : (
          <BarChart
            height={HEIGHT}
            layout="horizontal"
            dataset={stats.pii}
            yAxis={[{ scaleType: 'band', dataKey: 'kind', width: 100 }]}
            series={[{ dataKey: 'records', label: 'Records', color: '#ed6c02', valueFormatter: counted }]}
            hideLegend
          />
        )}
      </Figure>
    </Stack>
  );
}
