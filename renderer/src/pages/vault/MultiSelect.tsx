/** A labelled multiple-choice select (the record filters): chosen options read as a comma list. */
import { Checkbox, ListItemText, MenuItem, TextField } from '@mui/material';
import type { Option } from './options';

export function MultiSelect<T extends string>({ label, options, value, onChange, width = 170 }: { label: string; options: readonly Option[]; value: readonly T[]; onChange: (value: T[]) => void; width?: number }) {
  const names = new Map(options.map((o) => [o.value, o.label]));
  return (
    <TextField
      select
      size="small"
      label={label}
      value={value}
      onChange={(e) => onChange(e.target.value as unknown as T[])}
      sx={{ width }}
      slotProps={{ select: { multiple: true, renderValue: (chosen) => (chosen as string[]).map((v) => names.get(v) ?? v).join(', ') } }}
    >
      {options.length === 0 && (
        <MenuItem disabled value="">
          none in this dataset
        </MenuItem>
      )}
      {options.map((o) => (
        <MenuItem key={o.value} value={o.value} dense>
          <Checkbox size="small" checked={value.includes(o.value as T)} sx={{ p: 0.5, mr: 1 }} />
          <ListItemText primary={o.label} />
        </MenuItem>
      ))}
    </TextField>
  );
}
