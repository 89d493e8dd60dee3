/**
 * Record a release made outside Veil (e.g. a DP statistic published elsewhere from the same
 * data): a purpose and the privacy event — built from a small form for the common case, or
 * pasted as JSON — charged through the same reserve/commit path. A refusal (over budget)
 * is shown in the dialog, which keeps what was typed.
 */
import { Alert, Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, MenuItem, Stack, TextField, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import { useId, useState, type FormEvent } from 'react';
import type { VeilApi } from '../../../../electron/shared/contract';
import { describeEvent } from '../../../../core/accounting/describeEvent';
import { useAsyncAction } from '../../components/useAsyncAction';
import { eventFromForm, eventFromJson, initialReleaseForm, noiseLabel, type ReleaseFormState, type ReleaseMechanism } from './releaseEvent';

interface Props {
  api: VeilApi;
  dataset: string;
  open: boolean;
  onClose: () => void;
}

export function RecordReleaseDialog({ api, dataset, open, onClose }: Props) {
  const [purpose, setPurpose] = useState('');
  const [mode, setMode] = useState<'form' | 'json'>('form');
  const [form, setForm] = useState<ReleaseFormState>(initialReleaseForm);
  const [json, setJson] = useState('');
  const [touched, setTouched] = useState(false);
  const titleId = useId();
  const { busy, error, run } = useAsyncAction();
  const built = mode === 'form' ? eventFromForm(form) : eventFromJson(json);
  const errors = touched && !built.ok ? built.errors : {};
  const purposeError = touched && purpose.trim() === '' ? 'say what was released and where' : undefined;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!built.ok || purpose.trim() === '') return;
    const recorded = await run(() => api['ledger.record']({ dataset, event: built.event, purpose: purpose.trim() }));
    if (!recorded) return;
    setPurpose('');
    setForm(initialReleaseForm);
    setJson('');
    setTouched(false);
    onClose();
  };
  const field = (key: Exclude<keyof ReleaseFormState, 'mechanism'>, label: string, helper: string) => (
    <TextField label={label} value={form[key]} onChange={(e) => setForm({ ...form, [key]: e.target.value })} error={Boolean(errors[key])} helperText={errors[key] ?? helper} size="small" />
  );

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby={titleId}>
      <Box component="form" noValidate onSubmit={(e) => void submit(e)}>
        <DialogTitle id={titleId}>Record an external release on {dataset}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField label="Purpose" value={purpose} onChange={(e) => setPurpose(e.target.value)} error={Boolean(purposeError)} helperText={purposeError ?? 'what was released, where and why'} required size="small" slotProps={{ htmlInput: { maxLength: 500 } }} />
            <ToggleButtonGroup exclusive size="small" value={mode} onChange={(_, next: 'form' | 'json' | null) => next && setMode(next)} aria-label="how to describe the event">
              <ToggleButton value="form">Common mechanism</ToggleButton>
              <ToggleButton value="json">Advanced: paste event JSON</ToggleButton>
            </ToggleButtonGroup>
            {mode === 'form' ? (
              <Stack spacing={2}>
                <TextField select label="Mechanism" value={form.mechanism} onChange={(e) => setForm({ ...form, mechanism: e.target.value as ReleaseMechanism })} size="small">
                  <MenuItem value="gaussian">Gaussian</MenuItem>
                  <MenuItem value="laplace">Laplace</MenuItem>
                  <MenuItem value="pure">Pure ε-DP (any ε-DP mechanism)</MenuItem>
                </TextField>
                {field('noise', noiseLabel[form.mechanism], form.mechanism === 'pure' ? 'ε of one release' : 'noise added to the statistic')}
                {form.mechanism !== 'pure' && field('sensitivity', 'Sensitivity', form.mechanism === 'gaussian' ? 'ℓ2 sensitivity' : 'ℓ1 sensitivity')}
                {field('q', 'Poisson sampling rate q', 'optional: each unit included with probability q')}
                {field('count', 'Count', 'how many such releases')}
              </Stack>
            ) : (
              <TextField
                label="Privacy event JSON"
                value={json}
                onChange={(e) => setJson(e.target.value)}
                error={Boolean(errors.json)}
                helperText={errors.json ?? 'e.g. {"kind":"gaussian","sigma":2,"sensitivity":1}'}
                multiline
                minRows={4}
                slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: 'monospace' } } }}
              />
            )}
            {built.ok && (
              <Typography variant="body2" aria-label="event to charge">
                Charges: {describeEvent(built.event)}
              </Typography>
            )}
            {error && <Alert severity="error">Not recorded: {error}</Alert>}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="contained" disabled={busy}>
            Record release
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
