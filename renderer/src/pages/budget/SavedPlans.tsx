/**
 * Save the current plan under a name (a later job can run it) and the dataset's saved
 * plans, newest first: load one back into the planner, or delete it.
 */
import { Alert, Box, Button, Stack, Table, TableBody, TableCell, TableRow, TextField, Typography } from '@mui/material';
import { useState, type FormEvent } from 'react';
import type { PlanRequest } from '../../../../electron/shared/api/planner';
import type { VeilApi } from '../../../../electron/shared/contract';
import { useApiQuery } from '../../components/useApiQuery';
import { useAsyncAction } from '../../components/useAsyncAction';
import { HeaderRow } from './HeaderRow';
import { formatEpsilon } from './ledgerView';

interface Props {
  api: VeilApi;
  dataset: string;
  request: PlanRequest | null;
  onLoad: (request: PlanRequest) => void;
}

const columns = ['Name', 'Workload', 'ε', 'Saved', 'Actions'];

const workloadText = (request: PlanRequest) => {
  const w = request.workload;
  return w.kind === 'synth' ? `synthetic prompt: ${w.shots} shots, ${w.method}` : `answering: ${w.queries.toLocaleString('en-US')} queries, ${w.aggregation}`;
};

export function SavedPlans({ api, dataset, request, onLoad }: Props) {
  const [name, setName] = useState('');
  const [saved, setSaved] = useState<string | null>(null);
  const plans = useApiQuery(() => api['plan.list']({ dataset }), [api], dataset);
  const { busy, error, run } = useAsyncAction();

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (!request || name.trim() === '') return;
    const plan = await run(() => api['plan.save']({ name: name.trim(), request }));
    if (!plan) return;
    setSaved(`Saved plan "${plan.name}".`);
    setName('');
    plans.reload();
  };
  const remove = async (id: number) => {
    if ((await run(() => api['plan.delete']({ id }))) !== undefined) plans.reload();
  };

  return (
    <Stack spacing={1.5}>
      <Box component="form" noValidate onSubmit={(e) => void save(e)} aria-label="save plan" sx={{ display: 'flex', gap: 1, alignItems: 'start' }}>
        <TextField label="Plan name" value={name} onChange={(e) => (setName(e.target.value), setSaved(null))} size="small" slotProps={{ htmlInput: { maxLength: 200 } }} />
        <Button type="submit" variant="outlined" disabled={busy || !request || name.trim() === ''}>
          Save plan
        </Button>
      </Box>
      {saved && <Alert severity="success">{saved}</Alert>}
      {(error || plans.error) && <Alert severity="error">{error ?? plans.error?.message}</Alert>}
      {plans.data && plans.data.length > 0 ? (
        <Table size="small" aria-label="saved plans">
          <HeaderRow columns={columns} />
          <TableBody>
            {plans.data.map((plan) => (
              <TableRow key={plan.id}>
                <TableCell>{plan.name}</TableCell>
                <TableCell>{workloadText(plan.request)}</TableCell>
                <TableCell>{formatEpsilon(plan.request.epsilon)}</TableCell>
                <TableCell>{new Date(plan.createdAt).toLocaleString()}</TableCell>
                <TableCell>
                  <Button size="small" onClick={() => onLoad(plan.request)} aria-label={`load plan ${plan.name}`}>
                    Load
                  </Button>
                  <Button size="small" color="error" disabled={busy} onClick={() => void remove(plan.id)} aria-label={`delete plan ${plan.name}`}>
                    Delete
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      ) : (
        <Typography variant="body2">No saved plans for this dataset.</Typography>
      )}
    </Stack>
  );
}
