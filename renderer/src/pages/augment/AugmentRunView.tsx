/** One augmentation run: its status or the service's reason it ended, what the ledger charged, the veil.augmentation/v1 certificate, and the document with the examples written. */
import { Alert, Chip, Stack, Typography } from '@mui/material';
import type { AugmentationCertificate, AugmentationRunDto } from '../../../../electron/shared/api/augmentation';
import type { VeilApi } from '../../../../electron/shared/contract';
import { KeyValueTable } from '../../components/KeyValueTable';
import { AugmentationDocumentView } from './AugmentationDocumentView';

const fmt = (x: number) => x.toPrecision(4);

/** Examples requested but not added: given up after the written-again tries (older documents: also duplicates the vault skipped). */
function notWritten({ requested, added, duplicates }: AugmentationCertificate['generated']): string {
  const skipped = duplicates > 0 ? `, ${duplicates} of them skipped as duplicates` : '';
  return `${requested - added} not written${skipped}`;
}

function certificateRows(c: AugmentationCertificate) {
  return [
    ['Guarantee', `(ε = ${fmt(c.epsilon.upper)}, δ = ${c.delta.toExponential(2)})-DP, ${c.neighbouring} of one ${c.privacyUnit}`],
    ['Mechanism', `${c.mechanism} (ρ = ${fmt(c.rho)}, depth ${c.depth})`],
    ['Accountant', `${c.accountant}: ε ∈ [${fmt(c.epsilon.lower)}, ${fmt(c.epsilon.upper)}]`],
    ['Seeds', c.seeds.fallback ? `${c.seeds.count} public examples: no cluster survived the noise, a public sample was used` : `${c.seeds.count} public examples nearest ${c.seeds.noisyCounts.length} noisy centres`],
    ['Examples', `${c.generated.added} of ${c.generated.requested} requested added to the public split (${notWritten(c.generated)}), tagged ${c.generated.tags.join(', ')}`],
    ['Model', `${c.model.backend} · ${c.model.name}`],
    ['Ledger entry', `#${c.ledger.entryId} · ${c.ledger.entryHash.slice(0, 16)}…`],
    ['Content hash', c.contentHash],
  ] as const;
}

export function AugmentRunView({ api, run }: { api: VeilApi; run: AugmentationRunDto }) {
  const c = run.certificate;
  return (
    <Stack spacing={2} aria-label={`augmentation run ${run.id}`}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <Typography variant="body1">
          Run {run.id} · {run.dataset} · {new Date(run.createdAt).toLocaleString()}
        </Typography>
        <Chip size="small" label={run.status} color={run.status === 'succeeded' ? 'success' : run.status === 'running' ? 'info' : 'warning'} />
      </Stack>
      {run.error && <Alert severity={run.status === 'cancelled' ? 'warning' : 'error'}>{run.error}</Alert>}
      {c && (
        <>
          <Alert severity="success" role="status">
            Charged in the ledger: ε ≤ {fmt(c.epsilon.upper)} at δ = {c.delta.toExponential(2)} (entry #{c.ledger.entryId}); {c.generated.added} examples added to the public split.
          </Alert>
          <KeyValueTable label="augmentation certificate" rows={certificateRows(c)} />
        </>
      )}
      {run.status === 'succeeded' && <AugmentationDocumentView api={api} runId={run.id} />}
    </Stack>
  );
}
