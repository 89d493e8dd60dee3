/**
 * One answering run: status, what the ledger charged, the released answers (with the noisy
 * vote histogram as confidence, or the released keywords and whether PTR passed), the
 * evaluation scores, and the export of the answers with the batch's certificate.
 */
import { Alert, Button, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import type { AnswerRunDto } from '../../../../electron/shared/api/answering';
import type { VeilApi } from '../../../../electron/shared/contract';
import { downloadText } from '../../components/download';
import { KeyValueTable } from '../../components/KeyValueTable';
import { useAsyncAction } from '../../components/useAsyncAction';
import { SgaCandidates } from './SgaCandidates';

type Answer = NonNullable<AnswerRunDto['document']>['answers'][number];

function detail(answer: Answer, labels: readonly string[]): string {
  if (answer.histogram) return answer.histogram.map((h, i) => `${labels[i]}: ${h}`).join(' · ');
  if (answer.keywords) return answer.keywords.join(', ');
  return answer.ptrPassed === false ? 'none released (zero-shot answer)' : '';
}

const score = (x: number) => x.toFixed(3);

export function AnswersView({ api, run }: { api: VeilApi; run: AnswerRunDto }) {
  const { busy, error, run: act } = useAsyncAction();
  const doc = run.document;
  const exportJson = async () => {
    const file = await act(() => api['ask.export']({ id: run.id }));
    if (file) downloadText(file.fileName, file.mediaType, file.content);
  };
  const e = run.evaluation;
  return (
    <Stack spacing={2} aria-label={`answering run ${run.id}`}>
      <Typography variant="body2">
        Run {run.id} · {run.dataset} · {run.aggregation} · {run.queries} queries · status <b>{run.status}</b>
      </Typography>
      {run.error && <Alert severity={run.status === 'cancelled' ? 'warning' : 'error'}>{run.error}</Alert>}
      {doc && (
        <>
          <Alert severity="success" role="status">
            Charged in the ledger: ε ≤ {doc.certificate.epsilon.upper.toPrecision(4)} at δ = {doc.certificate.delta.toExponential(2)} (entry {doc.certificate.ledger.entryId})
            {run.failedTeachers ? ` · ${run.failedTeachers} teacher answers failed and were replaced by “no answer”` : ''}
          </Alert>
          <Table size="small" aria-label="answers">
            <TableHead>
              <TableRow>
                <TableCell>Query</TableCell>
                <TableCell>Released answer</TableCell>
                <TableCell>{run.aggregation === 'vote' ? 'Noisy votes (confidence)' : run.aggregation === 'sga' ? 'Public candidates (largest cluster first)' : 'Released keywords'}</TableCell>
                {run.aggregation === 'ptr' && <TableCell>PTR passed</TableCell>}
              </TableRow>
            </TableHead>
            <TableBody>
              {doc.answers.map((a, i) => (
                <TableRow key={i}>
                  <TableCell sx={{ maxWidth: 420, overflowWrap: 'anywhere' }}>{a.query.length > 300 ? `${a.query.slice(0, 300)}…` : a.query}</TableCell>
                  <TableCell>{a.answer}</TableCell>
                  <TableCell>{a.candidates ? <SgaCandidates candidates={a.candidates} selected={a.selected} /> : detail(a, doc.task.labels)}</TableCell>
                  {run.aggregation === 'ptr' && <TableCell>{a.ptrPassed ? 'yes' : 'no'}</TableCell>}
                </TableRow>
              ))}
            </TableBody>
          </Table>
          <Stack direction="row" spacing={1}>
            <Button variant="outlined" disabled={busy} onClick={() => void exportJson()}>
              Export answers with certificate (JSON)
            </Button>
          </Stack>
          {error && <Alert severity="error">{error}</Alert>}
        </>
      )}
      {e && (
        <KeyValueTable
          label="evaluation"
          rows={[
            ['Metric', `${e.metric} on ${e.examples} held-out records`],
            ['Private answers', score(e.private)],
            ['Zero-shot (ε = 0)', score(e.zeroShot)],
            ['Ensemble without noise (ε = ∞)', `${score(e.nonPrivate)} — NOT private, for comparison only`],
            ['Best DP synthetic prompt', e.bestSynthetic ? `${score(e.bestSynthetic.score)} (run ${e.bestSynthetic.runId}, ε = ${e.bestSynthetic.epsilon})` : 'none evaluated for this dataset'],
            ...(e.balanced ? [['Balanced accuracy', `private ${score(e.balanced.private)}; zero-shot ${score(e.balanced.zeroShot)}; without noise ${score(e.balanced.nonPrivate)} (NOT private)`] as const] : []),
            ...(e.breakEven ? [['Break-even', breakEvenText(e.breakEven)] as const] : []),
          ]}
        />
      )}
    </Stack>
  );
}

/** After how many queries like these a synthetic prompt is the cheaper release. */
export function breakEvenText(b: NonNullable<NonNullable<AnswerRunDto['evaluation']>['breakEven']>): string {
  const against = `${b.basis}, ε = ${b.synthEpsilon.toPrecision(3)}`;
  return b.queries === null
    ? `even 1,000,000 queries at this noise cost less than ${against}`
    : `beyond ${b.queries.toLocaleString('en-US')} queries at this noise, ${against} is the cheaper release`;
}
