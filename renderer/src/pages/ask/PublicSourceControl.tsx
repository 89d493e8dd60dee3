/**
 * Where the chosen dataset's public examples come from (issue 15): its own public split, or
 * — when it has none — the public split of another dataset of the vault (out-of-distribution
 * public data). The public ensemble, SGA's candidates and the keyword universe read them.
 */
import { Alert, Button, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { useState } from 'react';
import type { PublicSourceDto } from '../../../../electron/shared/api/publicSource';
import type { DatasetDto } from '../../../../electron/shared/api/vault';
import type { VeilApi } from '../../../../electron/shared/contract';
import { useAsyncAction } from '../../components/useAsyncAction';

interface Props {
  api: VeilApi;
  source: PublicSourceDto;
  datasets: readonly Pick<DatasetDto, 'name' | 'task'>[];
  /** Called after the setting changed (the default aggregation may follow it). */
  onChanged: () => void;
}

export function PublicSourceControl({ api, source: s, datasets, onChanged }: Props) {
  const [choice, setChoice] = useState('');
  const { busy, error, run } = useAsyncAction();
  const task = datasets.find((d) => d.name === s.dataset)?.task;
  const others = datasets.filter((d) => d.name !== s.dataset && d.task === task);
  const save = async (from: string | null) => {
    if ((await run(() => api['publicSource.set']({ dataset: s.dataset, from }))) !== undefined) {
      setChoice('');
      onChanged();
    }
  };
  const summary =
    s.uses === 'in-domain'
      ? `Public examples: its own public split (${s.inDomain} records).`
      : s.uses === 'other-dataset'
        ? `Public examples: the public split of “${s.from}” (${s.fromRecords} records; only that split is read).`
        : 'No public examples: semantic group aggregation and public data for keywords need some.';
  return (
    <Stack spacing={1} role="group" aria-label="public examples">
      <Typography variant="body2">{summary}</Typography>
      {s.inDomain === 0 && (
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <TextField select label="Public examples from dataset" value={choice} onChange={(e) => setChoice(e.target.value)} size="small" sx={{ minWidth: 280 }} helperText={others.length === 0 ? `no other ${task ?? ''} dataset in the vault` : 'only its public split is read'}>
            {others.map((d) => (
              <MenuItem key={d.name} value={d.name}>
                {d.name}
              </MenuItem>
            ))}
          </TextField>
          <Button variant="outlined" size="small" disabled={busy || choice === ''} onClick={() => void save(choice)}>
            Use its public split
          </Button>
          {s.from !== null && (
            <Button size="small" disabled={busy} onClick={() => void save(null)}>
              Stop using “{s.from}”
            </Button>
          )}
        </Stack>
      )}
      {error && <Alert severity="error">{error}</Alert>}
    </Stack>
  );
}
