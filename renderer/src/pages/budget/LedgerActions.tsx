/**
 * Ledger actions for compliance: verify the hash chain and the totals (naming the first
 * bad entry), export the ledger as JSON or CSV, and the printable HTML report — downloaded
 * (works in the desktop app, which opens no new windows, and in the browser) or, in
 * browser mode, opened in a new tab to print to PDF.
 */
import { Alert, Button, Stack } from '@mui/material';
import { useState } from 'react';
import type { VerificationDto } from '../../../../electron/shared/api/ledger';
import type { VeilApi } from '../../../../electron/shared/contract';
import { connection } from '../../api/client';
import { useAsyncAction } from '../../components/useAsyncAction';
import { downloadText } from '../../components/download';
import { firstProblem } from './ledgerView';

interface Checked {
  report: VerificationDto;
  at: Date;
}

function VerificationAlert({ report, at }: Checked) {
  const chain = report.chains[0];
  const when = `(checked ${at.toLocaleTimeString()})`;
  if (!report.ok) return <Alert severity="error">The ledger does NOT verify: {firstProblem(report.problems)} {when}</Alert>;
  return (
    <Alert severity="success">
      The ledger verifies: {chain ? `${chain.entries} entries, hash chain intact up to ${chain.head.slice(0, 16)}…, totals recomputed` : 'no entries'} {when}.
    </Alert>
  );
}

export function LedgerActions({ api, dataset, onRecord }: { api: VeilApi; dataset: string; onRecord: () => void }) {
  const [checked, setChecked] = useState<Checked | null>(null);
  const { busy, error, run } = useAsyncAction();

  const verify = async () => {
    const report = await run(() => api['ledger.verify']({ dataset }));
    if (report) setChecked({ report, at: new Date() });
  };
  const exportAs = async (format: 'json' | 'csv') => {
    const file = await run(() => api['ledger.export']({ dataset, format }));
    if (file) downloadText(file.fileName, file.mimeType, file.content);
  };
  const printable = async (open: boolean) => {
    const file = await run(() => api['ledger.report']({ dataset }));
    if (!file) return;
    if (!open) return downloadText(file.fileName, 'text/html', file.html);
    const url = URL.createObjectURL(new Blob([file.html], { type: 'text/html' }));
    window.open(url, '_blank', 'noopener');
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  };

  return (
    <Stack spacing={1}>
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
        <Button variant="contained" onClick={onRecord}>
          Record external release…
        </Button>
        <Button variant="outlined" disabled={busy} onClick={() => void verify()}>
          Verify
        </Button>
        <Button variant="outlined" disabled={busy} onClick={() => void exportAs('json')}>
          Export JSON
        </Button>
        <Button variant="outlined" disabled={busy} onClick={() => void exportAs('csv')}>
          Export CSV
        </Button>
        <Button variant="outlined" disabled={busy} onClick={() => void printable(false)}>
          Download printable report
        </Button>
        {connection.transport === 'bridge' && (
          <Button variant="outlined" disabled={busy} onClick={() => void printable(true)}>
            Open report to print
          </Button>
        )}
      </Stack>
      {error && <Alert severity="error">{error}</Alert>}
      {checked && <VerificationAlert {...checked} />}
    </Stack>
  );
}
