/** Past augmentation runs, newest first: Enter, Space or a click shows one with its certificate and examples. */
import { Table, TableBody, TableCell, TableHead, TableRow } from '@mui/material';
import type { AugmentationRunDto } from '../../../../electron/shared/api/augmentation';

export const addedText = (r: AugmentationRunDto) => (r.status === 'succeeded' ? `${r.added} of ${r.request.examples}` : `0 of ${r.request.examples}`);

export function AugmentRunsList({ runs, selected, onSelect }: { runs: readonly AugmentationRunDto[]; selected: number | null; onSelect: (id: number) => void }) {
  return (
    <Table size="small" aria-label="augmentation runs">
      <TableHead>
        <TableRow>
          <TableCell>Run</TableCell>
          <TableCell>Dataset</TableCell>
          <TableCell>ε</TableCell>
          <TableCell>Examples added</TableCell>
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
            aria-selected={r.id === selected}
            onClick={() => onSelect(r.id)}
            onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && (e.preventDefault(), onSelect(r.id))}
            sx={{ cursor: 'pointer' }}
          >
            <TableCell>{r.id}</TableCell>
            <TableCell>{r.dataset}</TableCell>
            <TableCell>{(r.certificate?.epsilon.upper ?? r.request.epsilon).toPrecision(3)}</TableCell>
            <TableCell>{addedText(r)}</TableCell>
            <TableCell>{r.status}</TableCell>
            <TableCell>{new Date(r.createdAt).toLocaleString()}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
