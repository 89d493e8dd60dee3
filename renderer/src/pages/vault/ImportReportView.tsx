/** The outcome of an import: accepted rows, skipped duplicates and bad rows with their line numbers and reasons, texts other datasets hold too. */
import { Alert, Box, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import type { ImportReport } from '../../../../electron/shared/api/vaultFiles';
import { formatBytes, formatCount } from '../../components/format';
import { lineList } from './importForm';

export function ImportReportView({ report }: { report: ImportReport }) {
  const { duplicates, badRows } = report;
  return (
    <Box role="region" aria-label="import report">
      <Alert severity={badRows.count > 0 || !report.encoding.ok ? 'warning' : 'success'}>
        Imported {formatCount(report.accepted)} of {formatCount(report.rowsRead)} rows ({formatBytes(report.bytes)}, {report.format}
        {report.delimiter ? `, delimiter ${JSON.stringify(report.delimiter)}` : ''}) in {report.seconds.toFixed(1)} s. Duplicates skipped: {formatCount(duplicates.count)}. Bad rows: {formatCount(badRows.count)}.
      </Alert>
      {!report.encoding.ok && <Alert severity="warning">{report.encoding.message}</Alert>}
      {report.withoutSubject > 0 && (
        <Alert severity="warning" sx={{ mt: 1 }}>
          {formatCount(report.withoutSubject)} {report.withoutSubject === 1 ? 'row has' : 'rows have'} no subject id: in this subject-level dataset each counts as its own data
          subject. Map the subject column, or fill it, if these rows belong to people with other records.
        </Alert>
      )}
      {report.alsoIn.length > 0 && (
        <Alert severity="warning" sx={{ mt: 1 }}>
          Some imported texts are also in{' '}
          {report.alsoIn.map((o) => `“${o.dataset}” (${formatCount(o.records)} ${o.records === 1 ? 'record' : 'records'})`).join(', ')}. Each dataset has its own privacy budget: a release from
          either spends against the same people. Keep one dataset per population.
        </Alert>
      )}
      {duplicates.count > 0 && (
        <Typography variant="body2" sx={{ mt: 1 }}>
          Duplicate lines (text already in the dataset or earlier in the file): {lineList(duplicates.lines, duplicates.count)}
        </Typography>
      )}
      {badRows.count > 0 && (
        <Box sx={{ maxHeight: 220, overflow: 'auto', mt: 1 }}>
          <Table size="small" stickyHeader aria-label="bad rows">
            <TableHead>
              <TableRow>
                <TableCell>Line</TableCell>
                <TableCell>Problem</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {badRows.rows.map((r) => (
                <TableRow key={`${r.line}-${r.code}`}>
                  <TableCell>{r.line}</TableCell>
                  <TableCell>{r.reason}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          {badRows.count > badRows.rows.length && <Typography variant="caption">The first {formatCount(badRows.rows.length)} of {formatCount(badRows.count)} are listed.</Typography>}
        </Box>
      )}
    </Box>
  );
}
