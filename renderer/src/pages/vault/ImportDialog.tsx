/**
 * Import a file into the dataset: an absolute path (browser mode has no file dialog), a
 * preview with the detected format, delimiter and encoding, the column mapping, then the
 * import as a job (progress bar, Cancel) and its report. Imports are atomic: a cancelled or
 * aborted import leaves nothing behind.
 */
import { Alert, Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { useId, useRef, useState, type FormEvent } from 'react';
import type { JobRecord } from '../../../../electron/shared/api/jobs';
import type { DatasetDto } from '../../../../electron/shared/api/vault';
import { importReportSchema, type Delimiter, type ImportFormat, type ImportPreview } from '../../../../electron/shared/api/vaultFiles';
import type { VeilApi } from '../../../../electron/shared/contract';
import { formatBytes } from '../../components/format';
import { useAsyncAction } from '../../components/useAsyncAction';
import { JobProgressBar } from '../../components/JobProgressBar';
import { jobResult } from '../../components/jobView';
import { useTrackedJob } from '../../components/useTrackedJob';
import { hasColumns, importOptionsError, importRequest, initialMapping, initialRandomSplit, type ImportOptions, type MappingState } from './importForm';
import { ImportMapping } from './ImportMapping';
import { ImportPreviewTable } from './ImportPreviewTable';
import { ImportReportView } from './ImportReportView';

const FORMATS: ImportFormat[] = ['csv', 'jsonl', 'json', 'txt'];
const DELIMITERS: [Delimiter, string][] = [[',', 'comma'], [';', 'semicolon'], ['\t', 'tab'], ['|', 'pipe']];

function outcome(record: JobRecord) {
  const report = jobResult(importReportSchema, record);
  if (report) return <ImportReportView report={report} />;
  if (record.status === 'cancelled') return <Alert severity="info">The import was cancelled; nothing was imported.</Alert>;
  return <Alert severity="error">The import failed: {record.error ?? record.status}</Alert>;
}

export function ImportDialog({ api, dataset, onClose, onImported }: { api: VeilApi; dataset: DatasetDto; onClose: () => void; onImported: () => void }) {
  const pathField = useRef<HTMLInputElement>(null);
  const titleId = useId();
  const [path, setPath] = useState('');
  const [format, setFormat] = useState<ImportFormat | ''>('');
  const [delimiter, setDelimiter] = useState<Delimiter | ''>('');
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [mapping, setMapping] = useState<MappingState | null>(null);
  const [options, setOptions] = useState<ImportOptions>({ split: 'private', onBadRow: 'skip', random: initialRandomSplit });
  const { busy, error, run } = useAsyncAction();
  const { job, track } = useTrackedJob(api, (record) => record.status === 'succeeded' && onImported());
  const running = job !== null && !job.finished;
  const source = (change: () => void) => (change(), setPreview(null));

  const loadPreview = async (event: FormEvent) => {
    event.preventDefault();
    if (path.trim() === '') return;
    const result = await run(() => api['vault.previewImport']({ path: path.trim(), format: format || undefined, delimiter: delimiter || undefined }));
    if (!result) return;
    setPreview(result);
    setMapping(initialMapping(result, dataset.labels));
  };
  const start = async () => {
    if (!preview || !mapping) return;
    const started = await run(() => api['vault.import'](importRequest(dataset.id, preview, mapping, options)));
    if (started) track(started.jobId);
  };

  return (
    // The focus trap focuses the dialog itself as it opens: the path field takes it once the dialog has entered.
    <Dialog open onClose={running ? undefined : onClose} maxWidth="lg" fullWidth aria-labelledby={titleId} slotProps={{ transition: { onEntered: () => pathField.current?.focus() } }}>
      <DialogTitle id={titleId}>Import into {dataset.name}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <Box component="form" noValidate onSubmit={loadPreview} sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', flexWrap: 'wrap' }}>
            <TextField label="File path" placeholder="/home/analyst/data/notes.csv" value={path} required inputRef={pathField} disabled={running} onChange={(e) => source(() => setPath(e.target.value))} helperText="Absolute path on this machine: CSV, JSONL, JSON array or plain text" sx={{ flex: 1, minWidth: 320 }} slotProps={{ htmlInput: { spellCheck: false } }} />
            <TextField select label="Format" value={format} disabled={running} onChange={(e) => source(() => setFormat(e.target.value as ImportFormat | ''))} sx={{ width: 130 }}>
              <MenuItem value="">detect</MenuItem>
              {FORMATS.map((f) => (
                <MenuItem key={f} value={f}>
                  {f}
                </MenuItem>
              ))}
            </TextField>
            <TextField select label="Delimiter" value={delimiter} disabled={running} onChange={(e) => source(() => setDelimiter(e.target.value as Delimiter | ''))} sx={{ width: 140 }}>
              <MenuItem value="">detect</MenuItem>
              {DELIMITERS.map(([d, name]) => (
                <MenuItem key={name} value={d}>
                  {name}
                </MenuItem>
              ))}
            </TextField>
            <Button type="submit" variant="outlined" disabled={busy || running || path.trim() === ''} sx={{ mt: 1 }}>
              Preview
            </Button>
          </Box>
          {error && <Alert severity="error">{error}</Alert>}
          {preview && mapping && (
            <>
              <Typography variant="body2" role="status" aria-label="detected format">
                {preview.format}
                {preview.delimiter ? ` · delimiter ${JSON.stringify(preview.delimiter)}` : ''} · {formatBytes(preview.size)} · {preview.encoding.encoding}
              </Typography>
              {!preview.encoding.ok && <Alert severity="warning">{preview.encoding.message}</Alert>}
              {preview.badRows.length > 0 && <Alert severity="warning">Among the first rows: {preview.badRows.map((b) => `line ${b.line}: ${b.reason}`).join('; ')}</Alert>}
              <ImportPreviewTable preview={preview} />
              <ImportMapping columns={hasColumns(preview) ? preview.columns : null} mapping={mapping} options={options} disabled={running} onMapping={setMapping} onOptions={setOptions} />
              {dataset.task === 'classification' && mapping.label === '' && (
                <Alert severity="warning">No label column is mapped: the records come in without a label, and the mechanisms sample a label&apos;s records only.</Alert>
              )}
            </>
          )}
          {job && <JobProgressBar job={job} what="Import" />}
          {job?.finished && outcome(job.finished)}
        </Stack>
      </DialogContent>
      <DialogActions>
        {running && (
          <Button color="warning" onClick={() => void run(() => api['jobs.cancel']({ id: job.id }))}>
            Cancel import
          </Button>
        )}
        <Button onClick={onClose} disabled={running}>
          Close
        </Button>
        <Button variant="contained" onClick={() => void start()} disabled={!preview || !mapping || (hasColumns(preview) && !mapping.text) || importOptionsError(options) !== null || busy || running}>
          Import
        </Button>
      </DialogActions>
    </Dialog>
  );
}
