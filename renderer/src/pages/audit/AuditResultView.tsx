/** One audit: per target the metrics with intervals, the empirical ε beside the accounted ε, ROC charts, report export. */
import { Alert, Button, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import type { AuditRunDto, AuditTargetResult } from '../../../../electron/shared/api/audit';
import { promptFitNote } from '../../../../electron/shared/auditPromptFit';
import type { VeilApi } from '../../../../electron/shared/contract';
import { downloadText } from '../../components/download';
import { printHtml } from '../../components/printHtml';
import { useAsyncAction } from '../../components/useAsyncAction';
import { RocCharts } from './AuditCharts';
import { epsilonText } from './auditCharts';

const pct = (x: number) => `${(100 * x).toFixed(1)} %`;

function TargetTable({ target }: { target: AuditTargetResult }) {
  const fit = promptFitNote(target);
  return (
    <Stack spacing={1}>
      <Typography variant="subtitle1" component="h3">
        {target.name}
      </Typography>
      <Typography variant="body2">{target.design}</Typography>
      <Table size="small" aria-label={`metrics of ${target.name}`}>
        <TableHead>
          <TableRow>
            {['Attack score', 'Members / non-members', 'AUROC', 'Bootstrap interval', 'TPR @ 1 % FPR', 'TPR @ 0.1 % FPR', 'Advantage'].map((h) => (
              <TableCell key={h}>{h}</TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {target.scores.map((s) => (
            <TableRow key={s.score}>
              <TableCell>{s.score}</TableCell>
              <TableCell>{`${s.metrics.members} / ${s.metrics.nonMembers}`}</TableCell>
              <TableCell>{s.metrics.auroc.toFixed(3)}</TableCell>
              <TableCell>{`${s.metrics.aurocInterval.lower.toFixed(3)} – ${s.metrics.aurocInterval.upper.toFixed(3)} (${pct(s.metrics.aurocInterval.level)})`}</TableCell>
              <TableCell>{pct(s.metrics.tprAt1)}</TableCell>
              <TableCell>{pct(s.metrics.tprAt01)}</TableCell>
              <TableCell>{s.metrics.advantage.toFixed(3)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {fit && <Typography variant="caption">{fit}</Typography>}
      {target.skipped.map((s) => (
        <Typography key={s.attack} variant="caption">{`${s.attack}: skipped (${s.reason})`}</Typography>
      ))}
      <Typography variant="body2" aria-label={`privacy of ${target.name}`}>
        {target.canary
          ? `Empirical ε ≥ ${target.canary.epsilonLower.toFixed(3)} (one-run canary audit, ${target.canary.correct}/${target.canary.guesses} guesses right of ${target.canary.m} canaries, 95 %) · accounted ε ≤ ${epsilonText(target.accountedEpsilon)}`
          : `Accounted ε ≤ ${epsilonText(target.accountedEpsilon)} · canary audit: ${target.canarySkipped}`}
      </Typography>
      {target.canary && target.accountedEpsilon !== null && target.canary.epsilonLower > target.accountedEpsilon && (
        <Alert severity="error">The empirical lower bound exceeds the accounted ε: the mechanism or its accounting is wrong — do not release with it.</Alert>
      )}
    </Stack>
  );
}

export function AuditResultView({ api, audit }: { api: VeilApi; audit: AuditRunDto }) {
  const { busy, error, run } = useAsyncAction();
  const save = async (format: 'html' | 'json') => {
    const file = await run(() => api['audit.export']({ id: audit.id, format }));
    if (file) downloadText(file.fileName, file.mediaType, file.content);
  };
  const print = async () => {
    const file = await run(() => api['audit.export']({ id: audit.id, format: 'html' }));
    if (file) await run(() => printHtml(file.content, { title: `Audit ${audit.id} report` }));
  };
  if (!audit.result) return <Alert severity={audit.status === 'running' ? 'info' : 'warning'}>{`Audit ${audit.id}: ${audit.status}${audit.error ? ` — ${audit.error}` : ''}`}</Alert>;
  return (
    <Stack spacing={2}>
      <Typography variant="body2">{`Audit ${audit.id} of ${audit.dataset} with ${audit.result.model}. Computed from private records on this machine; not charged to the ledger.`}</Typography>
      {audit.result.targets.map((t) => (
        <TargetTable key={t.name} target={t} />
      ))}
      <RocCharts targets={audit.result.targets} />
      <Stack direction="row" spacing={1}>
        <Button variant="outlined" disabled={busy} onClick={() => void save('html')}>Export report (HTML)</Button>
        <Button variant="outlined" disabled={busy} onClick={() => void save('json')}>Export report (JSON)</Button>
        <Button variant="outlined" disabled={busy} onClick={() => void print()}>Print report</Button>
      </Stack>
      {error && <Alert severity="error">{error}</Alert>}
    </Stack>
  );
}
