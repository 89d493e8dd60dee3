/**
 * The dataset's charts in their own section, placed after the records so the analyst reaches
 * the table first; "Hide charts" folds them away (remembered across visits).
 */
import { Box, Button } from '@mui/material';
import { useId, useState } from 'react';
import { Section } from '../../components/Section';
import type { VaultStats } from './chartData';
import { DatasetCharts } from './DatasetCharts';

export const CHARTS_HIDDEN_KEY = 'veil.vault.chartsHidden';

export function DatasetChartsSection({ stats }: { stats: VaultStats }) {
  const chartsId = useId();
  const [open, setOpen] = useState(() => localStorage.getItem(CHARTS_HIDDEN_KEY) !== '1');
  const toggle = () => {
    setOpen(!open);
    if (open) localStorage.setItem(CHARTS_HIDDEN_KEY, '1');
    else localStorage.removeItem(CHARTS_HIDDEN_KEY);
  };
  return (
    <Section title="Charts">
      <Box>
        <Button size="small" aria-expanded={open} aria-controls={chartsId} onClick={toggle}>
          {open ? 'Hide charts' : 'Show charts'}
        </Button>
      </Box>
      {open && (
        <Box id={chartsId}>
          <DatasetCharts stats={stats} />
        </Box>
      )}
    </Section>
  );
}
