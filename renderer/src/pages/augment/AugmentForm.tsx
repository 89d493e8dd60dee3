/**
 * The Augment form: dataset, ε of the one DPM release, examples to write (M), tree depth, tokens
 * per example and δ. "Price" (Enter in any field) shows the plan and charges nothing; "Augment"
 * reserves exactly what was priced and starts the job.
 */
import { Box, Button, Stack, Typography } from '@mui/material';
import type { FormEvent } from 'react';
import type { DatasetDto } from '../../../../electron/shared/api/vault';
import { DatasetSelect } from '../../components/DatasetSelect';
import { FormTextField } from '../../components/FormTextField';
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
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onPrice();
  };
  return (
    <Box component="form" noValidate onSubmit={submit} aria-label="augmentation settings">
      <Stack spacing={2}>
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
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <Button type="submit" variant="outlined" disabled={busy}>
            Price
          </Button>
          <Button variant="contained" disabled={busy || !priced} onClick={onStart} aria-describedby="augment-note">
            Augment
          </Button>
          <Typography id="augment-note" variant="body2" color="text.secondary">
            {priced ? 'Augment reserves the ε shown below in the ledger.' : 'Price the settings first: nothing is charged until you press Augment.'}
          </Typography>
        </Stack>
      </Stack>
    </Box>
  );
}
