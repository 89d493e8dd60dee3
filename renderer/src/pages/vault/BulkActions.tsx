/**
 * Actions on the selected records (by id, or every record matching the filter): move to a
 * split, set the label, add or remove a tag, hard-delete (confirmed, optionally compacting).
 */
import { Alert, Button, Stack, TextField, Typography } from '@mui/material';
import { useState } from 'react';
import type { z } from 'zod';
import type { bulkActionSchema, RecordFilter, Split } from '../../../../electron/shared/api/vault';
import type { VeilApi } from '../../../../electron/shared/contract';
import { formatCount } from '../../components/format';
import { useAsyncAction } from '../../components/useAsyncAction';
import { ConfirmDeleteDialog } from './ConfirmDeleteDialog';
import { deleteRecords } from './deleteRecords';
import { MenuButton } from './MenuButton';
import { labelOptions, splitOptions } from './options';
import { bulkTarget, selectedCount, type Selection } from './selection';

type BulkAction = z.input<typeof bulkActionSchema>;

interface Props {
  api: VeilApi;
  dataset: number;
  selection: Selection;
  total: number;
  filter: RecordFilter;
  labels: readonly string[];
  onDone: (deleted: boolean) => void;
  onSelectAll: () => void;
  onClear: () => void;
}

export function BulkActions({ api, dataset, selection, total, filter, labels, onDone, onSelectAll, onClear }: Props) {
  const [tag, setTag] = useState('');
  const [confirming, setConfirming] = useState(false);
  const { busy, error, run } = useAsyncAction();
  const count = selectedCount(selection, total);
  const target = bulkTarget(selection, filter);
  const finish = (deleted: boolean) => (done: unknown) => {
    if (done === undefined) return;
    setConfirming(false);
    onDone(deleted);
  };
  const apply = (action: Exclude<BulkAction, { kind: 'delete' }>) => void run(() => api['vault.bulk']({ dataset, target, action })).then(finish(false));
  const remove = (compact: boolean) => void run(() => deleteRecords(api, dataset, target, compact)).then(finish(true));

  return (
    <Stack spacing={1} role="toolbar" aria-label="bulk actions" sx={{ p: 1, bgcolor: 'action.hover', borderRadius: 1 }}>
      <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography variant="body2" sx={{ fontWeight: 500 }} role="status">
          {selection.kind === 'all' ? `All ${formatCount(count)} matching records selected` : `${formatCount(count)} selected`}
        </Typography>
        {selection.kind === 'ids' && count < total && <Button onClick={onSelectAll}>Select all {formatCount(total)} matching</Button>}
        <Button onClick={onClear}>Clear selection</Button>
        <MenuButton options={splitOptions} disabled={busy} onPick={(split) => apply({ kind: 'move', split: split as Split })}>
          Move to
        </MenuButton>
        {labels.length > 0 && (
          <MenuButton options={labelOptions(labels)} disabled={busy} onPick={(label) => apply({ kind: 'label', label: label || null })}>
            Set label
          </MenuButton>
        )}
        <TextField size="small" label="Tag" value={tag} onChange={(e) => setTag(e.target.value)} sx={{ width: 150 }} onKeyDown={(e) => e.key === 'Enter' && tag.trim() && apply({ kind: 'tag', tag: tag.trim() })} />
        <Button disabled={busy || !tag.trim()} onClick={() => apply({ kind: 'tag', tag: tag.trim() })}>
          Add tag
        </Button>
        <Button disabled={busy || !tag.trim()} onClick={() => apply({ kind: 'untag', tag: tag.trim() })}>
          Remove tag
        </Button>
        <Button color="error" variant="outlined" disabled={busy} onClick={() => setConfirming(true)}>
          Delete…
        </Button>
      </Stack>
      {error && !confirming && <Alert severity="error">{error}</Alert>}
      <ConfirmDeleteDialog open={confirming} title={`Delete ${formatCount(count)} record${count === 1 ? '' : 's'}?`} busy={busy} error={error} onClose={() => setConfirming(false)} onConfirm={remove}>
        The selected records and their history are removed from the vault.
      </ConfirmDeleteDialog>
    </Stack>
  );
}
