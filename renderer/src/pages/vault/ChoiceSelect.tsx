/**
 * A single-choice select for a record's label or split. Given `onCancel` it is inline: it
 * opens at once in a table cell; choosing (Enter or click) commits, Escape or leaving it
 * cancels.
 */
import { MenuItem, TextField } from '@mui/material';
import type { Option } from './options';

interface Props {
  label: string;
  options: readonly Option[];
  value: string;
  onChange: (value: string) => void;
  disabled?: boolean;
  /** Open at once in place; called when the menu closes without a new choice. */
  onCancel?: () => void;
}

export function ChoiceSelect({ label, options, value, onChange, disabled, onCancel }: Props) {
  const inline = onCancel !== undefined;
  return (
    <TextField
      select
      size="small"
      label={inline ? undefined : label}
      value={value}
      disabled={disabled}
      onChange={(e) => e.target.value !== value && onChange(e.target.value)}
      variant={inline ? 'standard' : 'outlined'}
      sx={{ minWidth: inline ? 110 : 160 }}
      slotProps={{
        select: { defaultOpen: inline, autoFocus: inline, onClose: onCancel, 'aria-label': label },
      }}
    >
      {options.map((o) => (
        <MenuItem key={o.value} value={o.value} dense>
          {o.label}
        </MenuItem>
      ))}
    </TextField>
  );
}

