/** Which of the dataset's public labels get demonstrations: all by default, or a chosen subset. */
import { Checkbox, FormControl, FormControlLabel, FormGroup, FormHelperText, FormLabel } from '@mui/material';

interface Props {
  /** The dataset's public label set. */
  labels: readonly string[];
  /** The chosen labels; null: all. */
  value: string[] | null;
  error?: string;
  onChange: (value: string[] | null) => void;
}

export function LabelPicker({ labels, value, error, onChange }: Props) {
  const chosen = value ?? labels;
  const toggle = (label: string) => {
    const next = labels.filter((l) => (l === label) !== chosen.includes(l));
    onChange(next.length === labels.length ? null : next);
  };
  return (
    <FormControl component="fieldset" error={Boolean(error)}>
      <FormLabel component="legend">Labels</FormLabel>
      <FormGroup row>
        {labels.map((label) => (
          <FormControlLabel key={label} label={label} control={<Checkbox size="small" checked={chosen.includes(label)} onChange={() => toggle(label)} />} />
        ))}
      </FormGroup>
      <FormHelperText>{error ?? 'demonstrations are spread over the checked public labels; only their pools are charged'}</FormHelperText>
    </FormControl>
  );
}
