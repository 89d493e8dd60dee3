/**
 * A dataset's budget summary and ledger entries, reloaded whenever the services push
 * `ledger.changed` for it (a budget change, an external release, a synthesis job).
 */
import { useEffect } from 'react';
import type { VeilApi } from '../../../../electron/shared/contract';
import { useApiQuery } from '../../components/useApiQuery';

export function useLedger(api: VeilApi, dataset: { id: number; name: string } | undefined) {
  const name = dataset?.name;
  const summary = useApiQuery(() => (name ? api['ledger.summary']({ dataset: name }) : Promise.resolve(null)), [api], name);
  const entries = useApiQuery(() => (name ? api['ledger.entries']({ dataset: name }) : Promise.resolve([])), [api], name);
  const reload = () => (summary.reload(), entries.reload());
  const datasetId = dataset?.id;

  // `reload` only bumps state counters, so the subscription need not follow it.
  useEffect(() => api.on('ledger.changed', (change) => change.datasetId === datasetId && reload()), [api, datasetId]);

  return { summary, entries, reload };
}
