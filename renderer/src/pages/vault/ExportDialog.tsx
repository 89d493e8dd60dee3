/**
 * Export the dataset (text, label, output, split, subject, tags) to a CSV or JSONL file at an
 * absolute path on this machine; the file is written owner-only. The format follows the
 * path's extension (the service writes only .csv / .jsonl files, outside hidden folders).
 * Existing files are kept unless overwriting is ticked.
 */
import { Alert, Button, Checkbox, Dialog, DialogActions, DialogContent, DialogTitle, FormControlLabel, MenuItem, Stack, TextField } from '@mui/material';
import { useId, useState, type FormEvent } from 'react';
import type { DatasetDto } from '../../../../electron/shared/api/vault';
import type { MethodOutput, VeilApi } from '../../../../electron/shared/contract';
import { formatBytes, formatCount } from '../../components/format';
import { useAsyncAction } from '../../components/useAsyncAction';

type Format = 'csv' | 'jsonl';

export function ExportDialog({ api, dataset, onClose }: { api: VeilApi; dataset: DatasetDto; onClose: () => void }) {
  const titleId = useId();
  const [path, setPath] = useState('');
  const [format, setFormat] = useState<Format>('csv');
  const [overwrite, setOverwrite] = useState(false);
  const [written, setWritten] = useState<MethodOutput<'vault.export'> | null>(null);
  const { busy, error, run } = useAsyncAction();
  const choosePath = (value: string) => {
    setPath(value);
    const extension = /\.(csv|jsonl)$/i.exec(value.trim())?.[1].toLowerCase();
    if (extension) setFormat(extension as Format);
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setWritten(null);
    if (path.trim() !== '') setWritten((await run(() => api['vault.export']({ dataset: dataset.id, path: path.trim(), format, overwrite }))) ?? null);
  };

  return (
    <Dialog open onClose={busy ? undefined : onClose} maxWidth="sm" fullWidth aria-labelledby={titleId}>
      <form onSubmit={submit} noValidate>
        <DialogTitle id={titleId}>Export {dataset.name}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <Alert severity="warning">The exported file holds the private text in the clear. Keep it where the vault is.</Alert>
            <TextField label="Export file path" placeholder={`/home/analyst/${dataset.name.replace(/\W+/g, '-')}.${format}`} value={path} required autoFocus onChange={(e) => choosePath(e.target.value)} helperText={`Absolute path on this machine, ending in .${format}`} slotProps={{ htmlInput: { spellCheck: false } }} />
            <TextField select label="Format" value={format} onChange={(e) => setFormat(e.target.value as Format)} sx={{ width: 160 }}>
              <MenuItem value="csv">CSV</MenuItem>
              <MenuItem value="jsonl">JSONL</MenuItem>
            </TextField>
            <FormControlLabel control={<Checkbox checked={overwrite} onChange={(e) => setOverwrite(e.target.checked)} />} label="Overwrite an existing file" />
            {error && <Alert severity="error">{error}</Alert>}
            {written && (
              <Alert severity="success">
                Wrote {formatCount(written.records)} records ({formatBytes(written.bytes)}) to {written.path}.
              </Alert>
            )}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={busy}>
            Close
          </Button>
          <Button type="submit" variant="contained" disabled={busy || path.trim() === ''}>
            Export
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
