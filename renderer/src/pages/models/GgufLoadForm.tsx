/**
 * "Load GGUF": a path field — plus "Browse…" (a native file dialog) in the desktop app,
 * shown only when model.pickGguf says a dialog is available, never in browser mode — an
 * optional thread count, a progress bar fed by the job's events, Cancel. Server errors
 * show inline and the input stays.
 */
import { Alert, Box, Button, LinearProgress, TextField, Typography } from '@mui/material';
import { useEffect, useState, type FormEvent } from 'react';
import type { JobRecord } from '../../../../electron/shared/api/jobs';
import type { VeilApi } from '../../../../electron/shared/contract';
import { parseOptionalInteger } from '../../components/format';
import { loadProgressView } from './loadProgress';
import { Section } from '../../components/Section';
import { useApiQuery } from '../../components/useApiQuery';
import { useAsyncAction } from '../../components/useAsyncAction';
import { useTrackedJob } from '../../components/useTrackedJob';

function outcomeAlert(record: JobRecord) {
  if (record.status === 'succeeded') return null;
  if (record.status === 'cancelled') return <Alert severity="info">Loading was cancelled.</Alert>;
  return <Alert severity="error">Could not load the model: {record.error ?? record.status}</Alert>;
}

export function GgufLoadForm({ api, loadingJobId, onFinished }: { api: VeilApi; loadingJobId: string | null; onFinished: () => void }) {
  const [path, setPath] = useState('');
  const [threads, setThreads] = useState('');
  const [pathError, setPathError] = useState<string | null>(null);
  const { busy, error, run } = useAsyncAction();
  const { job, track } = useTrackedJob(api, onFinished);
  const { data: dialog } = useApiQuery(() => api['model.pickGguf']({ probe: true }), [api]);
  const parsedThreads = parseOptionalInteger(threads, 1, 256);
  const running = job !== null && !job.finished;

  // A load started before this page opened (or in another window): follow it too.
  useEffect(() => {
    if (loadingJobId && job?.id !== loadingJobId) track(loadingJobId);
  }, [loadingJobId, job?.id, track]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (path.trim() === '') return setPathError('Enter the absolute path of a .gguf file');
    if (!parsedThreads.ok) return;
    setPathError(null);
    const started = await run(() => api['model.loadGguf']({ path: path.trim(), threads: parsedThreads.value }));
    if (started) track(started.jobId);
  };

  const browse = async () => {
    const picked = await run(() => api['model.pickGguf']({}));
    if (!picked?.path) return;
    setPath(picked.path);
    setPathError(null);
  };

  const view = job?.finished?.status === 'succeeded' ? { percent: 100, label: 'Loaded' } : loadProgressView(job?.progress);
  const loadSeconds = (job?.finished?.result as { loadSeconds?: number } | undefined)?.loadSeconds;

  return (
    <Section title="Load a GGUF model">
      <Typography variant="body2" color="text.secondary">
        Runs in llama.cpp in a separate model host process. The file is validated and hashed before it is loaded.
      </Typography>
      <Box component="form" noValidate onSubmit={submit} sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', flexWrap: 'wrap' }}>
        <TextField
          label="GGUF file path"
          placeholder="/home/analyst/models/model.Q4_K_M.gguf"
          value={path}
          onChange={(e) => setPath(e.target.value)}
          error={pathError !== null}
          helperText={pathError ?? 'Absolute path on this machine'}
          required
          sx={{ flex: 1, minWidth: 320 }}
          slotProps={{ htmlInput: { spellCheck: false } }}
        />
        {dialog?.available && (
          <Button variant="outlined" disabled={busy || running} onClick={() => void browse()} sx={{ mt: 1 }}>
            Browse…
          </Button>
        )}
        <TextField
          label="Threads"
          value={threads}
          onChange={(e) => setThreads(e.target.value)}
          error={!parsedThreads.ok}
          helperText={parsedThreads.ok ? 'Default: half the cores' : parsedThreads.error}
          sx={{ width: 170 }}
          slotProps={{ htmlInput: { inputMode: 'numeric' } }}
        />
        <Button type="submit" variant="contained" disabled={busy || running} sx={{ mt: 1 }}>
          Load GGUF
        </Button>
        {running && (
          <Button variant="outlined" onClick={() => void run(() => api['jobs.cancel']({ id: job.id }))} sx={{ mt: 1 }}>
            Cancel
          </Button>
        )}
      </Box>
      {error && <Alert severity="error">{error}</Alert>}
      {job && (
        <Box>
          <LinearProgress
            aria-label="Load progress"
            variant={view.percent === null ? 'indeterminate' : 'determinate'}
            value={view.percent ?? undefined}
            color={job.finished && job.finished.status !== 'succeeded' ? 'error' : 'primary'}
          />
          <Typography variant="caption" color="text.secondary" role="status">
            {view.label}
            {view.percent !== null && ` — ${view.percent} %`}
            {loadSeconds !== undefined && ` in ${loadSeconds.toFixed(2)} s`}
          </Typography>
        </Box>
      )}
      {job?.finished && outcomeAlert(job.finished)}
    </Section>
  );
}
