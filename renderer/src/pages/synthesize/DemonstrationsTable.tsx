/** The synthetic demonstrations of a run: label and text, and the synthetic output for generation tasks. */
import { Table, TableBody, TableCell, TableHead, TableRow } from '@mui/material';
import type { DpPromptExport } from '../../../../core/export/dpPromptFormat';

export function DemonstrationsTable({ demonstrations }: { demonstrations: DpPromptExport['demonstrations'] }) {
  const withOutputs = demonstrations.some((d) => d.output !== undefined);
  return (
    <Table size="small" aria-label="synthetic demonstrations">
      <TableHead>
        <TableRow>
          <TableCell>Label</TableCell>
          <TableCell>Synthetic demonstration</TableCell>
          {withOutputs && <TableCell>Synthetic output</TableCell>}
        </TableRow>
      </TableHead>
      <TableBody>
        {demonstrations.map((d, i) => (
          <TableRow key={i}>
            <TableCell>{d.label ?? '—'}</TableCell>
            <TableCell sx={{ overflowWrap: 'anywhere' }}>{d.text || <em>(empty)</em>}</TableCell>
            {withOutputs && <TableCell sx={{ overflowWrap: 'anywhere' }}>{d.output || <em>(empty)</em>}</TableCell>}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
