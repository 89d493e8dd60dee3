/**
 * The ledger's entries in chain order: entry id (as certificates and commits name it) and
 * position in the dataset's chain, time, type, reservation status (a
 * reservation whose job did not finish is marked as counted as spent), the event, the
 * purpose, ε spent after the entry and who made it.
 */
import { Chip, Table, TableBody, TableCell, TableContainer, TableRow, Typography } from '@mui/material';
import { memo } from 'react';
import type { LedgerEntryDto } from '../../../../electron/shared/api/ledger';
import { HeaderRow } from './HeaderRow';
import { entryDescription, entryEpsilonAfter, entryName } from './ledgerView';

const statusColor = { reserved: 'info', committed: 'success', orphaned: 'error' } as const;
const columns = ['Entry (#)', 'Time', 'Type', 'Status', 'Event', 'Purpose', 'ε after', 'Actor'];

/** Memoised: long ledgers do not re-render while the planner's sliders move. */
export const LedgerTable = memo(function LedgerTable({ entries }: { entries: readonly LedgerEntryDto[] }) {
  if (entries.length === 0) return <Typography variant="body2">The ledger of this dataset is empty.</Typography>;
  return (
    // Focusable so a keyboard can scroll a long ledger; a named region, so that focus says what it is.
    <TableContainer tabIndex={0} role="region" aria-label="ledger entries, scrollable" sx={{ maxHeight: 420 }}>
      <Table size="small" stickyHeader aria-label="ledger entries">
        <HeaderRow columns={columns} />
        <TableBody>
          {entries.map((entry) => (
            <TableRow key={entry.id}>
              <TableCell>{entryName(entry)}</TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{new Date(entry.createdAt).toLocaleString()}</TableCell>
              <TableCell>{entry.type}</TableCell>
              <TableCell>{entry.status ? <Chip size="small" color={statusColor[entry.status]} label={entry.statusText ?? entry.status} /> : '—'}</TableCell>
              <TableCell sx={{ overflowWrap: 'anywhere' }}>{entryDescription(entry)}</TableCell>
              <TableCell sx={{ overflowWrap: 'anywhere' }}>{entry.purpose}</TableCell>
              <TableCell>{entryEpsilonAfter(entry)}</TableCell>
              <TableCell>{entry.actor}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
});
