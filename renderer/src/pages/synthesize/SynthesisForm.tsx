/**
 * The job form: a saved plan to start from, dataset, labels, method, shots and the total ε
 * (δ defaults to the dataset's budget δ), with the ensemble settings folded under
 * "Advanced". "Price" calibrates the noise and shows the cost against the budget;
 * "Generate" reserves it and starts the job.
 */
import { Accordion, AccordionDetails, AccordionSummary, MenuItem, Stack, TextField, Typography } from '@mui/material';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import type { SavedPlan } from '../../../../electron/shared/api/planner';
import type { DatasetDto } from '../../../../electron/shared/api/vault';
import { LabelPicker } from './LabelPicker';
import { SavedPlanSelect } from './SavedPlanSelect';
import { methodLabels } from '../../components/synthesisMethods';
import { DatasetSelect } from '../../components/DatasetSelect';
import { FormTextField } from '../../components/FormTextField';
import { PricedJobForm, type FormJob } from '../../components/PricedJobForm';

const samplingHelp: Record<SynthesisFormState['sampling'], string> = {
  'per-token': 'a fresh sample every token: most amplification, every step prefills M prompts',
  'per-demonstration': 'one sample per demonstration: KV cache reused (far faster on real models), more noise for the same ε',
};
import { formFromPlan, type SynthesisFormState } from './synthesisForm';

type Errors = Partial<Record<keyof SynthesisFormState, string>>;
type TextKey = Exclude<keyof SynthesisFormState, 'labels'>;

interface Props {
  form: SynthesisFormState;
  job: FormJob<Errors>;
  datasets: readonly Pick<DatasetDto, 'name' | 'task' | 'labels'>[];
  plans: readonly SavedPlan[];
  /** Why Generate is refused although priced (the price exceeds the budget), else null. */
  blocked?: string | null;
  onChange: (form: SynthesisFormState) => void;
}

const advanced: [TextKey, string, string][] = [
  ['teachers', 'Teachers M', 'teacher prompts per token'],
  ['perTeacher', 'Examples per teacher N', 'expected private examples in each teacher prompt'],
  ['topK', 'Candidates K', 'top-K tokens of the public prompt'],
  ['maxTokens', 'Max tokens T_max', 'per demonstration (per input and per output for generation tasks); all are charged'],
  ['rounds', 'Rounds T̂ (AdaDPSyn)', 'radius-reduction rounds, charged in full'],
];

export function SynthesisForm({ form, job, datasets, plans, blocked = null, onChange }: Props) {
  const { errors } = job;
  const names = datasets.map((d) => d.name);
  const dataset = datasets.find((d) => d.name === form.dataset);
  const field = (key: TextKey, label: string, helper: string) => <FormTextField key={key} form={form} errors={errors} name={key} label={label} helper={helper} onChange={onChange} width={230} />;
  return (
    <PricedJobForm label="synthesis settings" action="Generate" job={job} blocked={blocked}>
      <SavedPlanSelect plans={plans} onUse={(plan) => onChange(formFromPlan(form, plan))} />
      <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: "wrap" }}>
        <DatasetSelect value={form.dataset} names={names} error={errors.dataset} use="its private split is used" onChange={(name) => onChange({ ...form, dataset: name, labels: null })} />
        <TextField
          select
          label="Method"
          value={form.method}
          onChange={(e) => onChange({ ...form, method: e.target.value as SynthesisFormState['method'] })}
          size="small"
          sx={{ minWidth: 360 }}
        >
          {Object.entries(methodLabels).map(([value, label]) => (
            <MenuItem key={value} value={value}>
              {label}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          label="Sampling"
          value={form.sampling}
          onChange={(e) => onChange({ ...form, sampling: e.target.value as SynthesisFormState['sampling'] })}
          helperText={samplingHelp[form.sampling]}
          size="small"
          sx={{ minWidth: 260 }}
        >
          <MenuItem value="per-token">Teachers drawn per token</MenuItem>
          <MenuItem value="per-demonstration">Teachers drawn per demonstration</MenuItem>
        </TextField>
      </Stack>
      {dataset?.task === 'classification' && dataset.labels.length > 0 && (
        <LabelPicker labels={dataset.labels} value={form.labels} error={errors.labels} onChange={(labels) => onChange({ ...form, labels })} />
      )}
      <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: "wrap" }}>
        {field('shots', 'Shots', 'demonstrations, spread over the public labels')}
        {field('epsilon', 'Total ε', 'for the whole job')}
        {field('delta', 'δ', 'empty: the dataset budget δ')}
      </Stack>
      <Accordion variant="outlined" disableGutters>
        <AccordionSummary expandIcon={<ExpandMoreIcon />}>
          <Typography variant="body2">Advanced: ensemble and instruction</Typography>
        </AccordionSummary>
        <AccordionDetails>
          <Stack spacing={2}>
            <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: "wrap" }}>
              {advanced.map(([key, label, helper]) => field(key, label, helper))}
            </Stack>
            <TextField
              label="Instruction"
              value={form.instruction}
              onChange={(e) => onChange({ ...form, instruction: e.target.value })}
              helperText="empty: a default instruction for the task"
              multiline
              minRows={2}
            />
          </Stack>
        </AccordionDetails>
      </Accordion>
    </PricedJobForm>
  );
}
