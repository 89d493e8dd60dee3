/** A record's history, oldest first: edits, bulk actions and redactions (never its text). */
import { List, ListItem, ListItemText, Typography } from '@mui/material';
import { describeHistory } from './historyText';

export function RecordHistory({ entries }: { entries: readonly { at: string; action: string; detail: Record<string, unknown> }[] }) {
  if (entries.length === 0) return <Typography variant="body2" color="text.secondary">No changes since it was added.</Typography>;
  return (
    <List dense aria-label="history" disablePadding>
      {entries.map((e, i) => (
        <ListItem key={i} disableGutters>
          <ListItemText primary={describeHistory(e)} secondary={new Date(e.at).toLocaleString()} />
        </ListItem>
      ))}
    </List>
  );
}
