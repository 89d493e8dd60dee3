/**
 * How the file's columns become records: text (required), label, subject, split and
 * reference output columns; the split of rows without one; skip or abort on a bad row.
 */
import { Alert, Checkbox, FormControlLabel, MenuItem, Radio, RadioGroup, Stack, TextField, Typography } from '@mui/material';
import type { Split } from '../../../../electron/shared/api/vault';
import { importOptionsError, initialRandomSplit, MAPPED_FIELDS, type ImportOptions, type MappedField, type MappingState, type RandomSplitForm } from './importForm';
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

const SHARES: [keyof Omit<RandomSplitForm, 'on' | 'seed'>, string][] = [
  ['private', 'Private %'],
  ['public', 'Public %'],
  ['heldOut', 'Held-out %'],
];

export function ImportMapping({ columns, mapping, options, disabled, onMapping, onOptions }: Props) {
  const random = options.random ?? initialRandomSplit;
  const setRandom = (change: Partial<RandomSplitForm>) => onOptions({ ...options, random: { ...random, ...change } });
  const randomError = importOptionsError(options);
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
        <TextField select size="small" label="Split of rows without one" value={options.split} disabled={disabled || random.on} onChange={(e) => onOptions({ ...options, split: e.target.value as Split })} sx={{ width: 220 }}>
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
      <FormControlLabel control={<Checkbox size="small" checked={random.on} onChange={(e) => setRandom({ on: e.target.checked })} />} label="Split rows without a split value at random into private / public / held-out" disabled={disabled} />
      {random.on && (
        <Stack spacing={1}>
          <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'flex-start' }}>
            {SHARES.map(([key, label]) => (
              <TextField key={key} size="small" type="number" label={label} value={random[key]} disabled={disabled} error={randomError !== null} onChange={(e) => setRandom({ [key]: e.target.value })} sx={{ width: 120 }} slotProps={{ htmlInput: { min: 0, max: 100, step: 'any' } }} />
            ))}
            <TextField size="small" label="Seed (optional)" value={random.seed} disabled={disabled} onChange={(e) => setRandom({ seed: e.target.value })} helperText="Same seed, same split. Without a seed the split is drawn from the CSPRNG." sx={{ width: 320 }} slotProps={{ htmlInput: { maxLength: 200, spellCheck: false } }} />
          </Stack>
          {randomError && (
            <Alert severity="error" role="alert">
              {randomError}
            </Alert>
          )}
        </Stack>
      )}
    </Stack>
  );
}
