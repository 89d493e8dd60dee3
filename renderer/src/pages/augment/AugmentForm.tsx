/**
 * The Augment form: dataset, ε of the one DPM release, examples to write (M), tree depth, tokens
 * per example and δ. "Price" (Enter in any field) shows the plan and charges nothing; "Augment"
 * reserves exactly what was priced and starts the job.
 */
import { Stack } from '@mui/material';
import type { DatasetDto } from '../../../../electron/shared/api/vault';
import { DatasetSelect } from '../../components/DatasetSelect';
import { FormTextField } from '../../components/FormTextField';
import { PricedJobForm } from '../../components/PricedJobForm';
import type { AugmentFormErrors, AugmentFormState } from './augmentForm';

interface Props {
  form: AugmentFormState;
  errors: AugmentFormErrors;
  datasets: readonly Pick<DatasetDto, 'name'>[];
  busy: boolean;
  priced: boolean;
  onChange: (form: AugmentFormState) => void;
  onPrice: () => void;
  onStart: () => void;
}

type NumberKey = Exclude<keyof AugmentFormState, 'dataset'>;

const FIELDS: readonly [NumberKey, string, string][] = [
  ['epsilon', 'ε of the release', 'charged once: DPM centres of the whole private split'],
  ['examples', 'Examples to write (M)', 'new public examples, tagged generated'],
  ['depth', 'Cluster depth', 'up to 2^depth centres, hence seeds'],
  ['maxTokens', 'Tokens per example', 'the longest example the model writes'],
  ['delta', 'δ', 'empty: the budget’s δ'],
];

export function AugmentForm({ form, errors, datasets, busy, priced, onChange, onPrice, onStart }: Props) {
  return (
    <PricedJobForm
      label="augmentation settings"
      action="Augment"
      busy={busy}
      priced={priced}
      unpricedNote="Price the settings first: nothing is charged until you press Augment."
      onPrice={onPrice}
      onStart={onStart}
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
