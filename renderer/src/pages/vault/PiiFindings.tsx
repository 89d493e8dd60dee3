/**
 * A record's PII findings by kind, each with "Redact" (every span of that kind) and its spans
 * one by one, each with its own "Redact" (so a false positive of the same kind can stay),
 * and "Redact all". Redaction replaces spans with typed placeholders such as [EMAIL] and is
 * recorded in the record's history.
 */
import { Button, Stack, Typography } from '@mui/material';
import type { PiiFinding, PiiKind } from '../../../../core/pii/types';
import { findingsByKind } from './piiSegments';

type Span = Pick<PiiFinding, 'start' | 'end'>;

interface Props {
  text: string;
  findings: readonly PiiFinding[];
  busy: boolean;
  onRedact: (choice?: { kinds: PiiKind[] } | { spans: Span[] }) => void;
}

export function PiiFindings({ text, findings, busy, onRedact }: Props) {
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
        <Button size="small" variant="contained" color="warning" disabled={busy} onClick={() => onRedact()}>
          Redact all
        </Button>
      </div>
    </Stack>
  );
}
