/** A two-column table of named values (row headers on the left), e.g. GGUF metadata. */
import { Table, TableBody, TableCell, TableRow } from '@mui/material';
import type { ReactNode } from 'react';

export type KeyValueRow = readonly [label: string, value: ReactNode];

export function KeyValueTable({ label, rows }: { label: string; rows: readonly KeyValueRow[] }) {
  return (
    <Table size="small" aria-label={label}>
      <TableBody>
        {rows.map(([name, value]) => (
          <TableRow key={name}>
            <TableCell component="th" scope="row" sx={{ width: 200, fontWeight: 500, verticalAlign: 'top' }}>
              {name}
            </TableCell>
            <TableCell sx={{ overflowWrap: 'anywhere' }}>{value}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
