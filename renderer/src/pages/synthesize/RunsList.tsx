/** Previous runs, newest first; choosing one shows it. */
import { Table, TableBody, TableCell, TableHead, TableRow } from '@mui/material';
import type { MethodOutput } from '../../../../electron/shared/contract';

type Runs = MethodOutput<'synth.list'>;

export function RunsList({ runs, selected, onSelect }: { runs: Runs; selected: number | null; onSelect: (id: number) => void }) {
  return (
    <Table size="small" aria-label="synthesis runs">
      <TableHead>
        <TableRow>
          <TableCell>Run</TableCell>
          <TableCell>Dataset</TableCell>
          <TableCell>Method</TableCell>
          <TableCell>Shots</TableCell>
          <TableCell>ε</TableCell>
          <TableCell>Status</TableCell>
          <TableCell>Created</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {runs.map((r) => (
          <TableRow
            key={r.id}
            hover
            selected={r.id === selected}
            tabIndex={0}
            onClick={() => onSelect(r.id)}
            onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && onSelect(r.id)}
            sx={{ cursor: 'pointer' }}
          >
            <TableCell>{r.id}</TableCell>
            <TableCell>{r.dataset}</TableCell>
            <TableCell>{r.method}</TableCell>
            <TableCell>{r.shots}</TableCell>
            <TableCell>{r.epsilon.toPrecision(3)}</TableCell>
            <TableCell>{r.status}</TableCell>
            <TableCell>{new Date(r.createdAt).toLocaleString()}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
