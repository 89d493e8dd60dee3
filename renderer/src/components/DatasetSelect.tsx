/** A job form's dataset choice: the vault's datasets by name, its error or what the dataset is used for, and where to create one when there is none. */
import { MenuItem, TextField } from '@mui/material';

interface Props {
  value: string;
  names: readonly string[];
  error?: string;
  /** What the chosen dataset is used for, shown under the field. */
  use: string;
  onChange: (name: string) => void;
}

export function DatasetSelect({ value, names, error, use, onChange }: Props) {
  return (
    <TextField
      select
      label="Dataset"
      value={names.includes(value) ? value : ''}
      onChange={(e) => onChange(e.target.value)}
      error={Boolean(error)}
      helperText={error ?? (names.length === 0 ? 'no datasets yet: create one in the Vault' : use)}
      size="small"
      sx={{ minWidth: 260 }}
    >
      {names.map((name) => (
        <MenuItem key={name} value={name}>
          {name}
        </MenuItem>
      ))}
    </TextField>
  );
}
