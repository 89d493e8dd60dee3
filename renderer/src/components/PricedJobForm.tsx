/**
 * The form of a priced job (Synthesize, Ask, Augment): its fields, then "Price" (Enter in any
 * field) and the start button, which spends the budget and so stays off until the current
 * settings are priced, with a note on what it does.
 */
import { Box, Button, Stack, Typography } from '@mui/material';
import type { FormEvent, ReactNode } from 'react';
import type { PricedJob } from './usePricedJob';

/** What a priced job's form reads of it (usePricedJob): the errors under its fields, whether it waits, the price, and its two buttons' actions. */
export type FormJob<Errors> = Pick<PricedJob<unknown, unknown, Errors>, 'errors' | 'busy' | 'priced' | 'price' | 'begin'>;

interface Props {
  /** The form's accessible name, e.g. "ask settings". */
  label: string;
  /** The start button's text, e.g. "Ask"; its note has the id `${lower-case action}-note`. */
  action: string;
  job: FormJob<unknown>;
  /** Why the start is refused although priced (the price exceeds the budget), else null. */
  blocked?: string | null;
  /** The note before a price; default: the action spends the budget the price shows. */
  unpricedNote?: string;
  children: ReactNode;
}

export function PricedJobForm({ label, action, job, blocked = null, unpricedNote, children }: Props) {
  const noteId = `${action.toLowerCase()}-note`;
  const { busy } = job;
  const priced = job.priced !== null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    job.price();
  };
  return (
    <Box component="form" noValidate onSubmit={submit} aria-label={label}>
      <Stack spacing={2}>
        {children}
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <Button type="submit" variant="outlined" disabled={busy}>
            Price
          </Button>
          <Button variant="contained" disabled={busy || !priced || blocked !== null} onClick={() => void job.begin()} aria-describedby={noteId}>
            {action}
          </Button>
          <Typography id={noteId} variant="body2" color="text.secondary">
            {blocked ?? (priced ? `${action} reserves the ε shown below in the ledger.` : (unpricedNote ?? `Price the settings first: ${action} spends the budget the price shows.`))}
          </Typography>
        </Stack>
      </Stack>
    </Box>
  );
}
