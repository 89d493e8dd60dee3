/** A text field of a job form whose state keeps fields as typed: its value, its validation error in place of the help. */
import { TextField } from '@mui/material';

interface Props<F> {
  form: F;
  errors: Partial<Record<keyof F, string>>;
  name: keyof F & string;
  label: string;
  helper: string;
  onChange: (form: F) => void;
  width?: number;
}

export function FormTextField<F extends object>({ form, errors, name, label, helper, onChange, width = 220 }: Props<F>) {
  return (
    <TextField
      label={label}
      value={String(form[name])}
      onChange={(e) => onChange({ ...form, [name]: e.target.value })}
      error={Boolean(errors[name])}
      helperText={errors[name] ?? helper}
      size="small"
      sx={{ width }}
    />
  );
}
