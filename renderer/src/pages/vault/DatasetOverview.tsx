/**
 * The selected dataset at a glance: task, public label set, privacy unit, split sizes,
 * subjects and description in one compact block, and the dataset's actions. Its charts
 * come after the records (DatasetChartsSection), so the table is reached first.
 */
import { Alert, Box, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import type { DatasetDto } from '../../../../electron/shared/api/vault';
import { formatCount } from '../../components/format';
import { Section } from '../../components/Section';
import type { VaultStats } from './chartData';

interface Props {
  dataset: DatasetDto;
  stats: VaultStats | undefined;
  statsError: Error | undefined;
  actions: ReactNode;
}

function facts(dataset: DatasetDto, stats: VaultStats | undefined): [string, string][] {
  const { counts, subjectCap } = dataset;
  return [
    ['Task', dataset.task],
    ['Public labels', dataset.task === 'classification' ? dataset.labels.join(', ') || 'none' : 'none (generation)'],
    ['Privacy unit', dataset.privacyUnit === 'record' ? 'one record' : `one data subject: at most ${subjectCap} record${subjectCap === 1 ? '' : 's'} of each in any sample (the cap applies at sampling; every record is kept)`],
    ['Records', `${formatCount(counts.total)} (private ${formatCount(counts.private)} · public ${formatCount(counts.public)} · held-out ${formatCount(counts.heldOut)})`],
    ...(stats && dataset.privacyUnit === 'subject' ? [['Subjects (private)', formatCount(stats.subjects)] as [string, string]] : []),
  ];
}

export function DatasetOverview({ dataset, stats, statsError, actions }: Props) {
  return (
    <Section title={`Dataset: ${dataset.name}`}>
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'baseline' }}>
        <Box component="dl" aria-label="dataset details" sx={{ m: 0, flex: 1, display: 'flex', flexWrap: 'wrap', columnGap: 3, rowGap: 0.5, typography: 'body2' }}>
          {facts(dataset, stats).map(([name, value]) => (
            <Box key={name} sx={{ display: 'flex', gap: 0.75 }}>
              <Box component="dt" sx={{ color: 'text.secondary' }}>
                {name}
              </Box>
              <Box component="dd" sx={{ m: 0, fontWeight: 500 }}>
                {value}
              </Box>
            </Box>
          ))}
        </Box>
        {actions}
      </Stack>
      {dataset.description && (
        <Typography variant="body2" color="text.secondary">
          {dataset.description}
        </Typography>
      )}
      {statsError && <Alert severity="error">Could not read the statistics: {statsError.message}</Alert>}
    </Section>
  );
}
