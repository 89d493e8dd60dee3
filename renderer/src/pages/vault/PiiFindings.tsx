/**
 * A record's PII findings by kind, each with "Redact" (every span of that kind: the API
 * redacts by kind), and "Redact all". Redaction replaces spans with typed placeholders
 * such as [EMAIL] and is recorded in the record's history.
 */
import { Button, Stack, Typography } from '@mui/material';
import type { PiiFinding, PiiKind } from '../../../../core/pii/types';
import { findingsByKind } from './piiSegments';

export function PiiFindings({ findings, busy, onRedact }: { findings: readonly PiiFinding[]; busy: boolean; onRedact: (kinds?: PiiKind[]) => void }) {
  if (findings.length === 0) return <Typography variant="body2" color="text.secondary">No personal data found in this record.</Typography>;
  return (
    <Stack spacing={0.5} role="list" aria-label="PII findings">
      {findingsByKind(findings).map(({ kind, count }) => (
        <Stack key={kind} role="listitem" direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <Typography variant="body2" sx={{ minWidth: 170 }}>
            {kind} × {count}
          </Typography>
          <Button size="small" variant="outlined" color="warning" disabled={busy} onClick={() => onRedact([kind])} aria-label={`Redact ${kind}`}>
            Redact
          </Button>
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
