/** The vault's datasets with their sizes; choosing one (click, Enter) shows it. */
import { List, ListItemButton, ListItemText, Typography } from '@mui/material';
import type { DatasetDto } from '../../../../electron/shared/api/vault';
import { formatCount } from '../../components/format';

export function DatasetList({ datasets, selected, onSelect }: { datasets: readonly DatasetDto[]; selected: number | null; onSelect: (id: number) => void }) {
  if (datasets.length === 0) return <Typography variant="body2">No datasets yet: create one (then import a file into it) or load a sample.</Typography>;
  return (
    <List dense aria-label="datasets" disablePadding>
      {datasets.map((d) => (
        <ListItemButton key={d.id} selected={d.id === selected} aria-current={d.id === selected ? 'true' : undefined} onClick={() => onSelect(d.id)}>
          <ListItemText primary={d.name} secondary={`${formatCount(d.counts.total)} records · ${d.task}`} />
        </ListItemButton>
      ))}
    </List>
  );
}
