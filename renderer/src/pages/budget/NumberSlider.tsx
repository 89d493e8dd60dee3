/**
 * One planner parameter as a slider (arrow keys step it; log-scaled where it spans orders
 * of magnitude) beside a text field for an exact value. A typed value out of range stays in
 * the field with the reason under it, and the plan keeps the last valid value. The slider is
 * named by the visible label alone and described by the helper text.
 */
import { Box, Slider, TextField, Typography } from '@mui/material';
import { useId, useState } from 'react';
import { fromSlider, parseParameter, sliderBounds, sliderStep, toSlider, type ParameterSpec } from './plannerForm';

interface Props {
  spec: ParameterSpec;
  value: number;
  onChange: (value: number) => void;
}

export function NumberSlider({ spec, value, onChange }: Props) {
  const [draft, setDraft] = useState<string | null>(null);
  const labelId = useId();
  const helperId = useId();
  const parsed = draft === null ? null : parseParameter(spec, draft);
  const [min, max] = sliderBounds(spec);
  const type = (text: string) => {
    setDraft(text);
    const result = parseParameter(spec, text);
    if (result.ok) onChange(result.value);
  };
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: '1fr 130px', columnGap: 2, alignItems: 'center', minWidth: 320 }}>
      <Typography variant="body2" sx={{ gridColumn: '1 / span 2' }}>
        <span id={labelId}>{spec.label}</span>{' '}
        <Typography id={helperId} component="span" variant="caption" color="text.secondary">
          — {spec.helper}
        </Typography>
      </Typography>
      <Slider
        aria-labelledby={labelId}
        slotProps={{ input: { 'aria-describedby': helperId } }}
        min={min}
        max={max}
        step={sliderStep(spec)}
        value={toSlider(spec, value)}
        scale={(position) => fromSlider(spec, position)}
        getAriaValueText={(position) => String(fromSlider(spec, position))}
        valueLabelDisplay="auto"
        onChange={(_, position) => (setDraft(null), onChange(fromSlider(spec, position as number, value)))}
        size="small"
      />
      <TextField
        label={spec.label}
        value={draft ?? String(value)}
        onChange={(e) => type(e.target.value)}
        onBlur={() => parsed?.ok && setDraft(null)}
        error={parsed?.ok === false}
        helperText={parsed?.ok === false ? parsed.error : ' '}
        size="small"
        slotProps={{ htmlInput: { inputMode: 'decimal' } }}
      />
    </Box>
  );
}
