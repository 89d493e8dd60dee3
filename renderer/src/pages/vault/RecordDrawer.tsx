/**
 * The record drawer: full text with PII highlighted, redaction, label / split / tag edits,
 * the reference output (generation datasets), history, and hard delete. Escape closes it.
 * Edits and errors stay in the drawer; the table and charts refresh on `vault.changed`.
 */
import { Alert, Box, Button, Divider, Drawer, IconButton, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import type { PiiFinding, PiiKind } from '../../../../core/pii/types';
import type { DatasetDto, RecordRow } from '../../../../electron/shared/api/vault';
import type { VeilApi } from '../../../../electron/shared/contract';
import { useApiQuery } from '../../components/useApiQuery';
import { useAsyncAction } from '../../components/useAsyncAction';
import { ConfirmDeleteDialog } from './ConfirmDeleteDialog';
import { deleteRecords } from './deleteRecords';
import { PiiFindings } from './PiiFindings';
import { PiiText } from './PiiText';
import { RecordFields, type RecordChange } from './RecordFields';
import { RecordHistory } from './RecordHistory';

interface Props {
  api: VeilApi;
  id: number;
  dataset: DatasetDto;
  revision: number;
  onClose: () => void;
  /** A row changed (label, split, tags, text): the table shows it at once. */
  onUpdated: (row: RecordRow) => void;
  onChanged: () => void;
}

function Heading({ children }: { children: string }) {
  return (
    <Typography variant="subtitle2" component="h3" sx={{ mt: 1 }}>
      {children}
    </Typography>
  );
}

export function RecordDrawer({ api, id, dataset, revision, onClose, onUpdated, onChanged }: Props) {
  const record = useApiQuery(() => api['vault.record']({ id }), [api, revision], id);
  const [confirming, setConfirming] = useState(false);
  const { busy, error, run } = useAsyncAction();
  const applied = async (action: () => Promise<RecordRow>) => {
    const row = await run(action);
    if (!row) return;
    onUpdated(row);
    onChanged();
    record.reload();
  };
  const update = (change: RecordChange) => void applied(() => api['vault.updateRecord']({ id, ...change }));
  const redact = (choice?: { kinds: PiiKind[] } | { spans: Pick<PiiFinding, 'start' | 'end'>[] }) =>
    void applied(() => api['vault.redact']({ id, ...(choice && ('kinds' in choice ? { kinds: choice.kinds } : { spans: choice.spans.map(({ start, end }) => ({ start, end })) })) }));
  const remove = async (compact: boolean) => {
    const done = await run(() => deleteRecords(api, dataset.id, { ids: [id] }, compact));
    if (done === undefined) return;
    setConfirming(false);
    onChanged();
    onClose();
  };
  const data = record.data;

  return (
    <Drawer anchor="right" open onClose={onClose} slotProps={{ paper: { sx: { width: 'min(640px, 100vw)' }, 'aria-label': `Record ${id}` } }}>
      <Stack spacing={1.5} sx={{ p: 2 }}>
        <Stack direction="row" sx={{ alignItems: 'center' }}>
          <Typography variant="h6" component="h2" sx={{ flex: 1 }}>
            Record {id}
          </Typography>
          <IconButton aria-label="Close record" onClick={onClose}>
            ✕
          </IconButton>
        </Stack>
        {record.error && <Alert severity="error">Could not read the record: {record.error.message}</Alert>}
        {error && !confirming && <Alert severity="error">{error}</Alert>}
        {data && (
          <>
            <RecordFields record={data} dataset={dataset} busy={busy} onChange={update} />
            <Heading>Text</Heading>
            <PiiText text={data.text} findings={data.pii} />
            <Heading>Personal data</Heading>
            <PiiFindings text={data.text} findings={data.pii} busy={busy} onRedact={redact} />
            {data.output !== null && (
              <>
                <Heading>Reference output</Heading>
                <Box component="pre" sx={{ m: 0, whiteSpace: 'pre-wrap', fontFamily: 'inherit' }}>
                  {data.output}
                </Box>
              </>
            )}
            <Heading>History</Heading>
            <RecordHistory entries={data.history} />
            <Divider />
            <Box>
              <Button color="error" variant="outlined" disabled={busy} onClick={() => setConfirming(true)}>
                Delete record…
              </Button>
            </Box>
          </>
        )}
      </Stack>
      <ConfirmDeleteDialog open={confirming} title={`Delete record ${id}?`} busy={busy} error={error} onClose={() => setConfirming(false)} onConfirm={(compact) => void remove(compact)}>
        The record, its text and its history are removed from the vault.
      </ConfirmDeleteDialog>
    </Drawer>
  );
}
