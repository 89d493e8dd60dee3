/** Previous runs, newest first; choosing one shows it. */
import type { MethodOutput } from '../../../../electron/shared/contract';
import { RunsTable, type RunColumn } from '../../components/RunsTable';

type Runs = MethodOutput<'synth.list'>;

const columns: readonly RunColumn<Runs[number]>[] = [
  ['Run', (r) => r.id],
  ['Dataset', (r) => r.dataset],
  ['Method', (r) => r.method],
  ['Shots', (r) => r.shots],
  ['ε', (r) => r.epsilon.toPrecision(3)],
  ['Status', (r) => r.status],
  ['Created', (r) => new Date(r.createdAt).toLocaleString()],
];

export function RunsList({ runs, selected, onSelect }: { runs: Runs; selected: number | null; onSelect: (id: number) => void }) {
  return <RunsTable label="synthesis runs" runs={runs} columns={columns} selected={selected} onSelect={onSelect} />;
}
