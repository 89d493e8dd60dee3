/**
 * How the file's columns become records: text (required), label, subject, split and
 * reference output columns; the split of rows without one; skip or abort on a bad row.
 */
import { FormControlLabel, MenuItem, Radio, RadioGroup, Stack, TextField, Typography } from '@mui/material';
import type { Split } from '../../../../electron/shared/api/vault';
import { MAPPED_FIELDS, type ImportOptions, type MappedField, type MappingState } from './importForm';
import { splitOptions } from './options';

const FIELD_NAMES: Record<MappedField, string> = { text: 'Text column', label: 'Label column', subject: 'Subject column', split: 'Split column', output: 'Output column' };

interface Props {
  columns: readonly string[] | null;
  mapping: MappingState;
  options: ImportOptions;
  disabled: boolean;
  onMapping: (mapping: MappingState) => void;
  onOptions: (options: ImportOptions) => void;
}

export function ImportMapping({ columns, mapping, options, disabled, onMapping, onOptions }: Props) {
  return (
    <Stack spacing={1.5}>
      {columns ? (
        <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
          {MAPPED_FIELDS.map((field) => (
            <TextField key={field} select size="small" label={FIELD_NAMES[field]} value={mapping[field]} disabled={disabled} onChange={(e) => onMapping({ ...mapping, [field]: e.target.value })} sx={{ width: 170 }}>
              {field !== 'text' && (
                <MenuItem value="">
                  <em>not mapped</em>
                </MenuItem>
              )}
              {columns.map((c) => (
                <MenuItem key={c} value={c}>
                  {c}
                </MenuItem>
              ))}
            </TextField>
          ))}
        </Stack>
      ) : (
        <Typography variant="body2">Plain text: every non-empty line becomes one record.</Typography>
      )}
      <Stack direction="row" spacing={3} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
        <TextField select size="small" label="Split of rows without one" value={options.split} disabled={disabled} onChange={(e) => onOptions({ ...options, split: e.target.value as Split })} sx={{ width: 220 }}>
          {splitOptions.map((o) => (
            <MenuItem key={o.value} value={o.value}>
              {o.label}
            </MenuItem>
          ))}
        </TextField>
        <RadioGroup row aria-label="On a bad row" value={options.onBadRow} onChange={(e) => onOptions({ ...options, onBadRow: e.target.value as ImportOptions['onBadRow'] })}>
          <FormControlLabel value="skip" control={<Radio size="small" />} label="Skip bad rows (listed in the report)" disabled={disabled} />
          <FormControlLabel value="abort" control={<Radio size="small" />} label="Abort on the first bad row" disabled={disabled} />
        </RadioGroup>
      </Stack>
    </Stack>
  );
}
