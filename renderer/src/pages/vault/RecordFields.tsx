/** A record's editable fields in the drawer: label (from the public label set), split, tags; subject shown. */
import { Box, Chip, Stack, TextField, Typography } from '@mui/material';
import { useState } from 'react';
import type { DatasetDto, RecordRow, Split } from '../../../../electron/shared/api/vault';
import { ChoiceSelect } from './ChoiceSelect';
import { labelOptions, splitOptions } from './options';

export type RecordChange = { label?: string | null; split?: Split; tags?: string[] };

export function RecordFields({ record, dataset, busy, onChange }: { record: RecordRow; dataset: DatasetDto; busy: boolean; onChange: (change: RecordChange) => void }) {
  const [tag, setTag] = useState('');
  const addTag = () => {
    const t = tag.trim();
    if (t && !record.tags.includes(t)) onChange({ tags: [...record.tags, t] });
    setTag('');
  };
  return (
    <Stack spacing={1.5}>
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
        {dataset.task === 'classification' && <ChoiceSelect label="Label" options={labelOptions(dataset.labels)} value={record.label ?? ''} disabled={busy} onChange={(v) => onChange({ label: v === '' ? null : v })} />}
        <ChoiceSelect label="Split" options={splitOptions} value={record.split} disabled={busy} onChange={(v) => onChange({ split: v as Split })} />
        {record.subject !== null && (
          <Typography variant="body2">
            Subject: <strong>{record.subject}</strong>
          </Typography>
        )}
      </Stack>
      <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap', alignItems: 'center' }} aria-label="tags" role="group">
        {record.tags.map((t) => (
          <Chip key={t} size="small" label={t} disabled={busy} onDelete={() => onChange({ tags: record.tags.filter((x) => x !== t) })} />
        ))}
        <TextField size="small" variant="standard" placeholder="add tag, Enter" value={tag} disabled={busy} onChange={(e) => setTag(e.target.value)} onKeyDown={(e) => e.key === 'Enter' && addTag()} slotProps={{ htmlInput: { 'aria-label': 'Add tag' } }} sx={{ width: 140 }} />
      </Box>
    </Stack>
  );
}
