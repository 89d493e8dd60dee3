/**
 * Create a dataset, or edit one (its task is fixed once created): name, task,
 * public label set, privacy unit, subject cap, description. Field errors show under the
 * fields; server errors in the dialog, with the input kept.
 */
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, MenuItem, Stack, TextField } from '@mui/material';
import { useId, useState, type FormEvent } from 'react';
import type { DatasetDto } from '../../../../electron/shared/api/vault';
import type { VeilApi } from '../../../../electron/shared/contract';
import { useAsyncAction } from '../../components/useAsyncAction';
import { emptyDatasetForm, formFromDataset, validateDatasetForm, type DatasetFormErrors, type DatasetFormState } from './datasetForm';

interface Props {
  api: VeilApi;
  /** The dataset to edit; null creates one. */
  dataset: DatasetDto | null;
  onDone: (dataset: DatasetDto) => void;
  onClose: () => void;
}

export function DatasetDialog({ api, dataset, onDone, onClose }: Props) {
  const titleId = useId();
  const [form, setForm] = useState<DatasetFormState>(() => (dataset ? formFromDataset(dataset) : emptyDatasetForm));
  const [errors, setErrors] = useState<DatasetFormErrors>({});
  const { busy, error, run } = useAsyncAction();
  const field = <K extends keyof DatasetFormState>(key: K) => ({
    value: form[key],
    onChange: (e: { target: { value: string } }) => setForm({ ...form, [key]: e.target.value }),
    error: errors[key] !== undefined,
    disabled: busy,
  });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = validateDatasetForm(form);
    setErrors(result.ok ? {} : result.errors);
    if (!result.ok) return;
    const { task, ...change } = result.fields;
    const saved = await run(() => (dataset ? api['vault.updateDataset']({ dataset: dataset.id, ...change }) : api['vault.createDataset']({ task, ...change })));
    if (saved) onDone(saved);
  };

  return (
    <Dialog open onClose={busy ? undefined : onClose} maxWidth="sm" fullWidth aria-labelledby={titleId}>
      <form onSubmit={submit} noValidate>
        <DialogTitle id={titleId}>{dataset ? `Edit ${dataset.name}` : 'New dataset'}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField label="Name" required autoFocus {...field('name')} helperText={errors.name} />
            <TextField select label="Task" {...field('task')} disabled={busy || dataset !== null} helperText={dataset ? 'Fixed once created' : 'Classification records carry a label from the public label set'}>
              <MenuItem value="classification">classification</MenuItem>
              <MenuItem value="generation">generation</MenuItem>
            </TextField>
            {form.task === 'classification' && (
              <TextField label="Public label set" multiline minRows={2} {...field('labels')} helperText={errors.labels ?? 'One per line or comma-separated. Public: synthetic demonstrations draw labels from it.'} />
            )}
            <Stack direction="row" spacing={2}>
              <TextField select label="Privacy unit" {...field('privacyUnit')} sx={{ flex: 1 }} helperText="Neighbouring datasets differ by one of these">
                <MenuItem value="record">record</MenuItem>
                <MenuItem value="subject">data subject</MenuItem>
              </TextField>
              {form.privacyUnit === 'subject' && <TextField label="Records per subject (cap)" {...field('subjectCap')} sx={{ flex: 1 }} helperText={errors.subjectCap ?? 'Default 1'} slotProps={{ htmlInput: { inputMode: 'numeric' } }} />}
            </Stack>
            <TextField label="Description" multiline minRows={2} {...field('description')} helperText={errors.description} />
            {error && <Alert severity="error">{error}</Alert>}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={busy}>
            {dataset ? 'Save' : 'Create'}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
