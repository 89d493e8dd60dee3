/**
 * A record's PII findings by kind, each with "Redact" (every span of that kind) and its spans
 * one by one, each with its own "Redact" (so a false positive of the same kind can stay),
 * and "Redact all". Redaction replaces spans with typed placeholders such as [EMAIL] and is
 * recorded in the record's history. "Redact all" asks first, listing what will be replaced by
 * kind and count (never the text). There is no undo: the vault securely deletes the old text
 * and its history keeps only the kinds and the number of spans, so the dialog says so.
 */
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, Stack, Typography } from '@mui/material';
import { useId, useState } from 'react';
import { redactionPlaceholder, type PiiFinding, type PiiKind } from '../../../../core/pii/types';
import { findingsByKind } from './piiSegments';

type Span = Pick<PiiFinding, 'start' | 'end'>;

interface Props {
  text: string;
  findings: readonly PiiFinding[];
  busy: boolean;
  onRedact: (choice?: { kinds: PiiKind[] } | { spans: Span[] }) => void;
}

export function PiiFindings({ text, findings, busy, onRedact }: Props) {
  const [confirming, setConfirming] = useState(false);
  const titleId = useId();
  const bodyId = useId();
  if (findings.length === 0) return <Typography variant="body2" color="text.secondary">No personal data found in this record.</Typography>;
  return (
    <Stack spacing={0.5} role="list" aria-label="PII findings">
      {findingsByKind(findings).map(({ kind, count }) => (
        <Stack key={kind} role="listitem" spacing={0.25}>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <Typography variant="body2" sx={{ minWidth: 170 }}>
              {kind} × {count}
            </Typography>
            <Button size="small" variant="outlined" color="warning" disabled={busy} onClick={() => onRedact({ kinds: [kind] })} aria-label={`Redact ${kind}`}>
              Redact
            </Button>
          </Stack>
          {count > 1 &&
            findings
              .filter((f) => f.kind === kind)
              .map((f) => {
                const shown = text.slice(f.start, f.end);
                return (
                  <Stack key={`${f.start}-${f.end}`} direction="row" spacing={1} sx={{ alignItems: 'center', pl: 2 }}>
                    <Typography variant="body2" component="code" sx={{ minWidth: 154, overflowWrap: 'anywhere' }}>
                      {shown}
                    </Typography>
                    <Button size="small" color="warning" disabled={busy} onClick={() => onRedact({ spans: [f] })} aria-label={`Redact only “${shown}” (${kind})`}>
                      Redact this
                    </Button>
                  </Stack>
                );
              })}
        </Stack>
      ))}
      <div>
        <Button size="small" variant="contained" color="warning" disabled={busy} onClick={() => setConfirming(true)} aria-haspopup="dialog">
          Redact all
        </Button>
      </div>
      <Dialog open={confirming} onClose={() => setConfirming(false)} aria-labelledby={titleId} aria-describedby={bodyId}>
        <DialogTitle id={titleId}>Redact all personal data in this record?</DialogTitle>
        <DialogContent>
          <DialogContentText id={bodyId} component="div">
            <Typography variant="body2">
              {findings.length} {findings.length === 1 ? 'span' : 'spans'} will be replaced by typed placeholders:
            </Typography>
            <ul>
              {findingsByKind(findings).map(({ kind, count }) => (
                <li key={kind}>
                  <Typography variant="body2">
                    {kind} × {count} → {redactionPlaceholder(kind)}
                  </Typography>
                </li>
              ))}
            </ul>
            <Typography variant="body2">
              This cannot be undone: the original text is securely deleted, and the record's history keeps only the kinds and the number of spans, never the text.
            </Typography>
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button autoFocus onClick={() => setConfirming(false)}>
            Cancel
          </Button>
          <Button variant="contained" color="warning" disabled={busy} onClick={() => (setConfirming(false), onRedact())}>
            Redact all {findings.length} {findings.length === 1 ? 'span' : 'spans'}
          </Button>
        </DialogActions>
      </Dialog>
    </Stack>
  );
}
