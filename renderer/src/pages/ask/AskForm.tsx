/**
 * The Ask form: dataset, aggregation (defaulting by task), ε for the batch or per query,
 * ensemble and shots, the candidates and keywords where the aggregation uses them, and the questions — typed, pasted or opened from a text file (one per
 * line) — or evaluation on held-out records. "Price" shows the cost and what the budget has
 * left; "Ask" reserves it and starts answering.
 */
import { Box, Button, Checkbox, FormControlLabel, MenuItem, Stack, TextField } from '@mui/material';
import type { ChangeEvent, ReactNode } from 'react';
import type { DatasetDto } from '../../../../electron/shared/api/vault';
import { DatasetSelect } from '../../components/DatasetSelect';
import { PricedJobForm, type FormJob } from '../../components/PricedJobForm';
import { aggregationLabels, usesCandidates, usesKeywords, type AskFormState } from './askForm';
import { SgaFields } from './SgaFields';

interface Props {
  form: AskFormState;
  job: FormJob<Record<keyof AskFormState, string>>;
  datasets: readonly Pick<DatasetDto, 'name' | 'task'>[];
  onChange: (form: AskFormState) => void;
  /** The aggregation the request gets ('' = the default, resolved by the task and public examples). */
  effective: string;
  /** Where the dataset's public examples come from (PublicSourceControl). */
  publicExamples?: ReactNode;
}

type TextKey = 'epsilon' | 'ensemble' | 'shots' | 'evaluate' | 'candidates' | 'keywords';

export function AskForm({ form, job, datasets, onChange, effective, publicExamples }: Props) {
  const { errors } = job;
  const dataset = datasets.find((d) => d.name === form.dataset);
  const method = effective;
  const methods = Object.entries(aggregationLabels).filter(([m]) => (dataset?.task === 'classification' ? m === 'vote' : dataset ? m !== 'vote' : true));
  const field = (key: TextKey, label: string, helper: string) => (
    <TextField
      label={label}
      value={form[key]}
      onChange={(e) => onChange({ ...form, [key]: e.target.value })}
      error={Boolean(errors[key])}
      helperText={errors[key] ?? helper}
      size="small"
      sx={{ width: 220 }}
    />
  );
  const open = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (file) onChange({ ...form, queries: await file.text() });
  };
  return (
    <PricedJobForm label="ask settings" action="Ask" job={job}>
      <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }}>
        <DatasetSelect value={form.dataset} names={datasets.map((d) => d.name)} error={errors.dataset} use="its private split answers" onChange={(name) => onChange({ ...form, dataset: name, aggregation: '' })} />
        <TextField
          select
          label="Aggregation"
          value={form.aggregation}
          onChange={(e) => onChange({ ...form, aggregation: e.target.value as AskFormState['aggregation'] })}
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
          size="small"
          sx={{ minWidth: 380 }}
        >
          <MenuItem value="">Default for the task{effective && form.aggregation === '' ? ` (${effective})` : ''}</MenuItem>
          {methods.map(([value, label]) => (
            <MenuItem key={value} value={value}>
              {label}
            </MenuItem>
          ))}
        </TextField>
      </Stack>
      {publicExamples}
      <SgaFields form={form} errors={errors} aggregation={effective} onChange={(next) => onChange({ ...form, ...next })} />
      <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'flex-start' }}>
        {field('epsilon', form.perQuery ? 'ε per query' : 'ε of the batch', form.perQuery ? 'the batch costs their composition' : 'for all the questions together')}
        <FormControlLabel control={<Checkbox checked={form.perQuery} onChange={(e) => onChange({ ...form, perQuery: e.target.checked })} />} label="ε per query" />
        {field('ensemble', 'Ensemble (teachers)', 'teacher prompts per query')}
        {field('shots', 'Shots per teacher', 'expected private examples in each')}
        {usesCandidates(method) && field('candidates', 'Candidates', 'public zero-shot answers to choose among or draw keywords from')}
        {usesKeywords(method) && field('keywords', method === 'ptr' ? 'Largest k (keywords)' : 'Keywords', method === 'ptr' ? 'PTR chooses k ≤ this privately' : 'keywords released per answer')}
      </Stack>
      <TextField
        label="Questions (one per line)"
        value={form.queries}
        onChange={(e) => onChange({ ...form, queries: e.target.value })}
        error={Boolean(errors.queries)}
        helperText={errors.queries ?? 'typed, pasted, or opened from a text file'}
        multiline
        minRows={3}
        maxRows={12}
      />
      <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'flex-start' }}>
        <Button component="label" variant="outlined" size="small">
          Open questions file…
          <Box component="input" type="file" accept=".txt,text/plain" hidden onChange={(e) => void open(e as ChangeEvent<HTMLInputElement>)} />
        </Button>
        {field('evaluate', 'Evaluate on held-out records', 'empty: answer the questions; a number: score that many held-out records')}
      </Stack>
    </PricedJobForm>
  );
}
