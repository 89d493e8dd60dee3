/** Past augmentation runs, newest first: choosing one shows it with its certificate and examples. */
import type { AugmentationRunDto } from '../../../../electron/shared/api/augmentation';
import { RunsTable, type RunColumn } from '../../components/RunsTable';

const columns: readonly RunColumn<AugmentationRunDto>[] = [
  ['Run', (r) => r.id],
  ['Dataset', (r) => r.dataset],
  ['ε', (r) => (r.certificate?.epsilon.upper ?? r.request.epsilon).toPrecision(3)],
  ['Examples added', (r) => `${r.added} of ${r.request.examples}`],
  ['Status', (r) => r.status],
  ['Created', (r) => new Date(r.createdAt).toLocaleString()],
];

export function AugmentRunsList({ runs, selected, onSelect }: { runs: readonly AugmentationRunDto[]; selected: number | null; onSelect: (id: number) => void }) {
  return <RunsTable label="augmentation runs" runs={runs} columns={columns} selected={selected} onSelect={onSelect} />;
}
