/** The first rows of a file to import, as read with the detected format and delimiter, with their line numbers. */
import { Box, Table, TableBody, TableCell, TableHead, TableRow } from '@mui/material';
import type { ImportPreview } from '../../../../electron/shared/api/vaultFiles';

const CELL_CHARS = 120;

export function ImportPreviewTable({ preview }: { preview: ImportPreview }) {
  const columns = preview.columns.length ? preview.columns : ['text'];
  return (
    <Box sx={{ maxHeight: 260, overflow: 'auto', border: 1, borderColor: 'divider', borderRadius: 1 }}>
      <Table size="small" stickyHeader aria-label="import preview">
        <TableHead>
          <TableRow>
            <TableCell>Line</TableCell>
            {columns.map((c) => (
              <TableCell key={c}>{c}</TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {preview.rows.map((r) => (
            <TableRow key={r.line}>
              <TableCell>{r.line}</TableCell>
              {columns.map((c) => (
                <TableCell key={c} sx={{ maxWidth: 320, overflowWrap: 'anywhere' }}>
                  {(r.values[c] ?? '').slice(0, CELL_CHARS)}
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}
