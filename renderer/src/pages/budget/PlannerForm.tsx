/**
 * The planner's inputs: the workload (synthetic prompt or private answering), the planned
 * ε and δ, and each workload parameter as a slider with an exact-value field.
 */
import { Box, MenuItem, Stack, TextField, ToggleButton, ToggleButtonGroup } from '@mui/material';
import { methodLabels } from '../../components/synthesisMethods';
import { NumberSlider } from './NumberSlider';
import { aggregationLabels, answerSpecs, epsilonSpec, synthSpecs, type PlannerFormState, type SynthParameters, type AnswerParameters } from './plannerForm';

interface Props {
  form: PlannerFormState;
  deltaError: string | null;
  onChange: (form: PlannerFormState) => void;
}

const entries = <K extends string, V>(record: Record<K, V>) => Object.entries(record) as [K, V][];

function Choice<K extends string>({ label, value, labels, onChange }: { label: string; value: K; labels: Record<K, string>; onChange: (value: K) => void }) {
  return (
    <TextField select label={label} value={value} onChange={(e) => onChange(e.target.value as K)} size="small">
      {entries(labels).map(([option, text]) => (
        <MenuItem key={option} value={option}>
          {text}
        </MenuItem>
      ))}
    </TextField>
  );
}

export function PlannerForm({ form, deltaError, onChange }: Props) {
  const setSynth = (change: Partial<SynthParameters>) => onChange({ ...form, synth: { ...form.synth, ...change } });
  const setAnswer = (change: Partial<AnswerParameters>) => onChange({ ...form, answer: { ...form.answer, ...change } });
  const synthSliders = entries(synthSpecs).filter(([key]) => key !== 'rounds' || form.synth.method === 'adadpsyn');
  return (
    <Stack spacing={2} role="group" aria-label="planned workload">
      <ToggleButtonGroup
        exclusive
        color="primary"
        size="small"
        value={form.kind}
        onChange={(_, kind: PlannerFormState['kind'] | null) => kind && onChange({ ...form, kind })}
        aria-label="workload"
      >
        <ToggleButton value="synth">Synthetic prompt</ToggleButton>
        <ToggleButton value="answer">Private answering</ToggleButton>
      </ToggleButtonGroup>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { md: '1fr 1fr' }, alignItems: 'start' }}>
        <NumberSlider spec={epsilonSpec} value={form.epsilon} onChange={(epsilon) => onChange({ ...form, epsilon })} />
        <TextField
          label="Planned δ"
          value={form.delta}
          onChange={(e) => onChange({ ...form, delta: e.target.value })}
          error={deltaError !== null}
          helperText={deltaError ?? 'empty: the budget δ (else min(1/(10·N), 1e-5))'}
          size="small"
          sx={{ mt: 3 }}
        />
        {form.kind === 'synth' ? (
          <Choice label="Method" value={form.synth.method} labels={methodLabels} onChange={(method) => setSynth({ method })} />
        ) : (
          <Choice label="Aggregation" value={form.answer.aggregation} labels={aggregationLabels} onChange={(aggregation) => setAnswer({ aggregation })} />
        )}
        {form.kind === 'synth'
          ? synthSliders.map(([key, spec]) => <NumberSlider key={key} spec={spec} value={form.synth[key]} onChange={(value) => setSynth({ [key]: value })} />)
          : entries(answerSpecs).map(([key, spec]) => <NumberSlider key={key} spec={spec} value={form.answer[key]} onChange={(value) => setAnswer({ [key]: value })} />)}
      </Box>
    </Stack>
  );
}
