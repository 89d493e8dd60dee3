/** Past runs of a job kind, newest first, as a table whose rows select their run on a click, Enter or Space. */
import { Table, TableBody, TableCell, TableHead, TableRow } from '@mui/material';
import type { ReactNode } from 'react';

export type RunColumn<R> = readonly [header: string, cell: (run: R) => ReactNode];

interface Props<R extends { id: number }> {
  label: string;
  runs: readonly R[];
  columns: readonly RunColumn<R>[];
  selected: number | null;
  onSelect: (id: number) => void;
}

export function RunsTable<R extends { id: number }>({ label, runs, columns, selected, onSelect }: Props<R>) {
  return (
    <Table size="small" aria-label={label}>
      <TableHead>
        <TableRow>
          {columns.map(([header]) => (
            <TableCell key={header}>{header}</TableCell>
          ))}
        </TableRow>
      </TableHead>
      <TableBody>
        {runs.map((run) => (
          <TableRow
            key={run.id}
            hover
            selected={run.id === selected}
            tabIndex={0}
            onClick={() => onSelect(run.id)}
            onKeyDown={(e) => {
              if (e.key !== 'Enter' && e.key !== ' ') return;
              e.preventDefault();
              onSelect(run.id);
            }}
            sx={{ cursor: 'pointer' }}
          >
            {columns.map(([header, cell]) => (
              <TableCell key={header}>{cell(run)}</TableCell>
            ))}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
