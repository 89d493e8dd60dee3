/**
 * Ledger actions for compliance: verify the hash chain and the totals (naming the first
 * bad entry), export the ledger as JSON or CSV, and the printable HTML report — downloaded,
 * or printed through the system print dialog (which saves as PDF) from a hidden frame, in
 * the desktop app and in the browser alike. A failed action can be retried from its alert.
 */
import { Alert, Button, Stack } from '@mui/material';
import { useState } from 'react';
import type { VerificationDto } from '../../../../electron/shared/api/ledger';
import type { VeilApi } from '../../../../electron/shared/contract';
import { RetryAlert } from '../../components/RetryAlert';
import { useAsyncAction } from '../../components/useAsyncAction';
import { downloadText } from '../../components/download';
import { printHtml } from '../../components/printHtml';
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
    const report = await api['ledger.verify']({ dataset });
    setChecked({ report, at: new Date() });
  };
  const exportAs = async (format: 'json' | 'csv') => {
    const file = await api['ledger.export']({ dataset, format });
    downloadText(file.fileName, file.mimeType, file.content);
  };
  const download = async () => {
    const file = await api['ledger.report']({ dataset });
    downloadText(file.fileName, 'text/html', file.html);
  };
  const print = async () => printHtml((await api['ledger.report']({ dataset })).html, { title: `Budget report of ${dataset}` });
  /** Each button: its label, what it does (for the error alert), and the action. */
  const actions = {
    verify: ['Verify', 'verify the ledger', verify],
    json: ['Export JSON', 'export the ledger', () => exportAs('json')],
    csv: ['Export CSV', 'export the ledger', () => exportAs('csv')],
    download: ['Download printable report', 'download the report', download],
    print: ['Print / save as PDF…', 'print the report', print],
  } satisfies Record<string, [label: string, what: string, action: () => Promise<unknown>]>;
  type Action = keyof typeof actions;
  const [last, setLast] = useState<Action>('verify');
  const start = (action: Action) => {
    setLast(action);
    void run(actions[action][2]);
  };

  return (
    <Stack spacing={1}>
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
        <Button variant="contained" onClick={onRecord}>
          Record external release…
        </Button>
        {(Object.keys(actions) as Action[]).map((action) => (
          <Button key={action} variant="outlined" disabled={busy} onClick={() => start(action)}>
            {actions[action][0]}
          </Button>
        ))}
      </Stack>
      <RetryAlert what={actions[last][1]} error={error} onRetry={() => start(last)} />
      {checked && <VerificationAlert {...checked} />}
    </Stack>
  );
}
