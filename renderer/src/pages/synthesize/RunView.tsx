/**
 * One finished run: the synthetic demonstrations, the rendered prompt, the privacy
 * certificate, one-click exports (save or copy) and the utility check on the held-out split.
 */
import type { DpPromptExport } from '../../../../core/export/dpPromptFormat';
import { substitutionNote } from '../../../../core/icl/teacherEvaluation';
import { Alert, Box, Button, Chip, Stack, Typography } from '@mui/material';
import type { SynthesisRunDto } from '../../../../electron/shared/api/synthesis';
import type { VeilApi } from '../../../../electron/shared/contract';
import { KeyValueTable } from '../../components/KeyValueTable';
import { useAsyncAction } from '../../components/useAsyncAction';
import { useTrackedJob } from '../../components/useTrackedJob';
import { JobProgressBar } from '../../components/JobProgressBar';
import { DemonstrationsTable } from './DemonstrationsTable';
import { ExportActions } from './ExportActions';
import { UtilityTable } from './UtilityTable';

export function RunView({ api, run, onChanged }: { api: VeilApi; run: SynthesisRunDto; onChanged: () => void }) {
  const { busy, error, run: act } = useAsyncAction();
  const { job, track } = useTrackedJob(api, onChanged);
  const evaluating = job !== null && !job.finished;
  const doc = run.document;
  return (
    <Stack spacing={2} aria-label={`run ${run.id}`}>
      <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
        <Typography variant="h6" component="h2">
          Run {run.id}
        </Typography>
        <Chip size="small" label={run.status} color={run.status === 'succeeded' ? 'success' : run.status === 'running' ? 'info' : 'warning'} />
      </Stack>
      {run.teachers && run.teachers.substituted > 0 && <Alert severity="info">{substitutionNote(run.teachers)}</Alert>}
      {run.error && <Alert severity={run.status === 'cancelled' ? 'info' : 'error'}>{run.error}</Alert>}
      {doc && (
        <>
          <DemonstrationsTable demonstrations={doc.demonstrations} />
          <Box component="pre" aria-label="rendered prompt" sx={{ m: 0, p: 1, bgcolor: 'action.hover', whiteSpace: 'pre-wrap', fontSize: 13, maxHeight: 240, overflow: 'auto' }}>
            {doc.prompt}
          </Box>
          <KeyValueTable
            label="privacy certificate"
            rows={[
              ['Guarantee', `(ε = ${doc.certificate.epsilon.upper.toPrecision(4)}, δ = ${doc.certificate.delta.toExponential(2)})-DP, ${doc.certificate.neighbouring} of one ${doc.certificate.privacyUnit}`],
              ['Mechanism', doc.certificate.mechanism],
              ['Accountant', `${doc.certificate.accountant}: ε ∈ [${doc.certificate.epsilon.lower.toPrecision(4)}, ${doc.certificate.epsilon.upper.toPrecision(4)}]`],
              ['Model', `${doc.certificate.model.backend} · ${doc.certificate.model.name}${doc.certificate.model.sha256 ? ` · ${doc.certificate.model.sha256.slice(0, 16)}…` : ''}`],
              ['Ledger entry', `#${doc.certificate.ledger.entryId} · ${doc.certificate.ledger.entryHash.slice(0, 16)}…`],
              ['Pool sizes', poolSizesText(doc.certificate)],
              ['Public metadata', doc.certificate.publicMetadata ? `${Object.keys(doc.certificate.publicMetadata).join('; ')}: released as is, outside the guarantee` : '—'],
            ]}
          />
          <ExportActions api={api} runId={run.id} />
          <Box>
            <Button
              variant="outlined"
              disabled={busy || evaluating}
              onClick={() => void act(async () => track((await api['synth.evaluate']({ id: run.id, limit: 200 })).jobId))}
            >
              {evaluating ? 'Evaluating…' : 'Check utility on held-out'}
            </Button>
            {evaluating && (
              <Button sx={{ ml: 1 }} onClick={() => void act(() => api['jobs.cancel']({ id: job.id }))}>
                Cancel check
              </Button>
            )}
          </Box>
          {evaluating && <JobProgressBar job={job} what="Utility check" />}
          {job?.finished && job.finished.status !== 'succeeded' && <Alert severity="error">Utility check: {job.finished.error ?? job.finished.status}</Alert>}
          {run.utility && <UtilityTable utility={run.utility} />}
        </>
      )}
      {error && <Alert severity="error">{error}</Alert>}
    </Stack>
  );
}

/** What the certificate says about its pool sizes (noisy, declared public, or exact in a certificate issued before they were noised). */
function poolSizesText({ poolSizes: sizes, sizeLedger }: Pick<DpPromptExport['certificate'], 'poolSizes' | 'sizeLedger'>): string {
  if (!sizes) return 'exact (issued before Veil noised pool sizes): outside the guarantee';
  if (sizes.kind === 'declared-public') return 'exact: the dataset size was declared public (outside the guarantee)';
  if (!sizeLedger) return `noisy counts (discrete Laplace, ε = ${sizes.epsilon}), charged with the job`;
  return `noisy counts (discrete Laplace, ε = ${sizes.epsilon}), charged first as their own ledger entry #${sizeLedger.entryId} · ${sizeLedger.entryHash.slice(0, 16)}…`;
}
