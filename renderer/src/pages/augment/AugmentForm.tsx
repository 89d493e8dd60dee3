/**
 * The Augment form: dataset, ε of the one DPM release, examples to write (M), tree depth, tokens
 * per example and δ. "Price" (Enter in any field) shows the plan and charges nothing; "Augment"
 * reserves exactly what was priced and starts the job.
 */
import { Stack } from '@mui/material';
import type { DatasetDto } from '../../../../electron/shared/api/vault';
import { DatasetSelect } from '../../components/DatasetSelect';
import { FormTextField } from '../../components/FormTextField';
import { PricedJobForm, type FormJob } from '../../components/PricedJobForm';
import type { AugmentFormErrors, AugmentFormState } from './augmentForm';

interface Props {
  form: AugmentFormState;
  job: FormJob<AugmentFormErrors>;
  datasets: readonly Pick<DatasetDto, 'name'>[];
  onChange: (form: AugmentFormState) => void;
}

type NumberKey = Exclude<keyof AugmentFormState, 'dataset'>;

const FIELDS: readonly [NumberKey, string, string][] = [
  ['epsilon', 'ε of the release', 'charged once: DPM centres of the whole private split'],
  ['examples', 'Examples to write (M)', 'new public examples, tagged generated'],
  ['depth', 'Cluster depth', 'up to 2^depth centres, hence seeds'],
  ['maxTokens', 'Tokens per example', 'the longest example the model writes'],
  ['delta', 'δ', 'empty: the budget’s δ'],
];

export function AugmentForm({ form, job, datasets, onChange }: Props) {
  const { errors } = job;
  return (
    <PricedJobForm
      label="augmentation settings"
      action="Augment"
      job={job}
      unpricedNote="Price the settings first: nothing is charged until you press Augment."
    >
      <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'flex-start' }}>
        <DatasetSelect
          value={form.dataset}
          names={datasets.map((d) => d.name)}
          error={errors.dataset}
          use="its private split places the centres; its public examples seed the model"
          onChange={(dataset) => onChange({ ...form, dataset })}
        />
        {FIELDS.map(([name, label, helper]) => (
          <FormTextField key={name} form={form} errors={errors} name={name} label={label} helper={helper} onChange={onChange} />
        ))}
      </Stack>
    </PricedJobForm>
  );
}
