/**
 * Hard-delete a dataset and its records, optionally compacting the vault file. While the
 * deletion runs the page stops showing the dataset (`onRemoving`), so no refresh asks for
 * it once it is gone. A dataset with ledger entries stays as an empty shell: `onDone` says so.
 */
import type { DatasetDto } from '../../../../electron/shared/api/vault';
import type { VeilApi } from '../../../../electron/shared/contract';
import { formatCount } from '../../components/format';
import { useAsyncAction } from '../../components/useAsyncAction';
import { ConfirmDeleteDialog } from './ConfirmDeleteDialog';

interface Props {
  api: VeilApi;
  dataset: DatasetDto;
  onRemoving: (id: number | null) => void;
  onDone: (notice: string | null) => void;
  onClose: () => void;
}

export function DeleteDatasetDialog({ api, dataset, onRemoving, onDone, onClose }: Props) {
  const { busy, error, run } = useAsyncAction();
  const confirm = async (compact: boolean) => {
    onRemoving(dataset.id);
    const result = await run(() => api['vault.deleteDataset']({ dataset: dataset.id, compact }));
    if (!result?.datasetRemoved) onRemoving(null);
    if (result) onDone(result.datasetRemoved ? null : `${dataset.name}: its ${formatCount(result.deletedRecords)} records were deleted; the dataset stays as an empty shell because the privacy ledger has entries for it.`);
  };
  return (
    <ConfirmDeleteDialog open title={`Delete dataset ${dataset.name}?`} busy={busy} error={error} onClose={onClose} onConfirm={(compact) => void confirm(compact)}>
      Every record of this dataset ({formatCount(dataset.counts.total)}) and their history are removed from the vault.
    </ConfirmDeleteDialog>
  );
}
