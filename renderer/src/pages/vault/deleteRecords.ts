/** Hard-delete records (by id or by filter), then optionally compact the vault file. */
import type { RecordFilter } from '../../../../electron/shared/api/vault';
import type { VeilApi } from '../../../../electron/shared/contract';

export async function deleteRecords(api: VeilApi, dataset: number, target: { ids: number[] } | { filter: RecordFilter }, compact: boolean): Promise<number> {
  const { affected } = await api['vault.bulk']({ dataset, target, action: { kind: 'delete' } });
  if (compact) await api['vault.compact']({});
  return affected;
}
