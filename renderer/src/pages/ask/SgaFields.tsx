/**
 * The Ask form's public-data fields: for semantic group aggregation its clusters (tree depth),
 * candidates k and selection (by the model, or the nearest); for keyword aggregation whether the
 * public ensemble's answers join the universe and the final prompt.
 */
import { Checkbox, FormControlLabel, MenuItem, Stack, TextField } from '@mui/material';
import type { SgaErrors, SgaFormState } from './sgaForm';

interface Props {
  form: SgaFormState;
  errors: SgaErrors;
  /** The aggregation as resolved for the dataset (the default shown as what it becomes). */
  aggregation: string;
  onChange: (form: SgaFormState) => void;
}

export function SgaFields({ form, errors, aggregation, onChange }: Props) {
  if (aggregation === 'keyword' || aggregation === 'ptr') {
    return (
      <FormControlLabel
        control={<Checkbox checked={form.publicData} onChange={(e) => onChange({ ...form, publicData: e.target.checked })} />}
        label="Use public examples: their ensemble’s answers join the keyword universe and the final prompt (counts stay private)"
      />
    );
  }
  if (aggregation !== 'sga') return null;
  const number = (key: 'sgaDepth' | 'sgaCandidates', label: string, helper: string) => (
    <TextField label={label} value={form[key]} onChange={(e) => onChange({ ...form, [key]: e.target.value })} error={Boolean(errors[key])} helperText={errors[key] ?? helper} size="small" sx={{ width: 220 }} />
  );
  return (
    <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'flex-start' }} role="group" aria-label="semantic group aggregation settings">
      {number('sgaDepth', 'Cluster depth', `up to ${2 ** (Number(form.sgaDepth) || 0) || '2^depth'} clusters of the private answers`)}
      {number('sgaCandidates', 'Candidates k', 'public answers nearest to the k largest clusters')}
      <TextField select label="Selection" value={form.sgaSelection} onChange={(e) => onChange({ ...form, sgaSelection: e.target.value as SgaFormState['sgaSelection'] })} size="small" sx={{ minWidth: 260 }} helperText="public post-processing: costs nothing">
        <MenuItem value="model">The model picks the most accurate</MenuItem>
        <MenuItem value="nearest">Nearest to the largest cluster</MenuItem>
      </TextField>
    </Stack>
  );
}
