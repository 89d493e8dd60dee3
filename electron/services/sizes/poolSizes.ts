/**
 * Private sizes for the services (issue 20): a dataset's setting "size is public" (off by
 * default), and the one call every private release that needs pool sizes makes —
 * `releaseDatasetSizes(dataset, exact)` — which returns noisy sizes with the event to charge
 * (compose it into the release's own reservation), or the exact sizes where the analyst
 * declared them public. Synthesis uses it for q and the certificate; the budget's default δ
 * uses it for N. Private answering releases its own noisy size of the private split
 * (answerPricing.ts) and does not yet honour the "size is public" setting.
 */
import { releasePoolSizes, type PoolSizeRelease, type PoolSizeSource } from '../../../core/icl/noisyPoolSizes';
import { cryptoRandom } from '../../../core/random/cryptoRandom';
import type { RandomSource } from '../../../core/random/randomSource';
import type { Queryable } from '../db/database';
import { resolveDataset, type DatasetRef } from '../ledger/datasets';

/** Whether the analyst declared the dataset's size public (then pool sizes are used exactly). */
export async function isSizePublic(q: Queryable, datasetId: number): Promise<boolean> {
  const row = await q.get<{ sizePublic: number }>('SELECT size_public AS sizePublic FROM datasets WHERE id = $datasetId', { datasetId });
  return row?.sizePublic === 1;
}

export async function setSizePublic(q: Queryable, ref: DatasetRef, sizePublic: boolean): Promise<{ dataset: string; sizePublic: boolean }> {
  const dataset = await resolveDataset(q, ref);
  await q.run('UPDATE datasets SET size_public = $value WHERE id = $id', { id: dataset.id, value: sizePublic ? 1 : 0 });
  return { dataset: dataset.name, sizePublic };
}

export interface SizedDataset {
  privacyUnit: 'record' | 'subject';
  sizePublic?: boolean;
}

/** Noisy (or declared-public) sizes of `exact`'s pools, keyed as given, with the event to charge. */
export function releaseDatasetSizes<K>(
  dataset: SizedDataset,
  exact: ReadonlyMap<K, number>,
  random: RandomSource = cryptoRandom,
): Omit<PoolSizeRelease, 'sizes'> & { sizes: Map<K, number> } {
  const keys = [...exact.keys()];
  const release = releasePoolSizes({ exact: keys.map((k) => exact.get(k)!), privacyUnit: dataset.privacyUnit, sizePublic: dataset.sizePublic === true, random });
  return { ...release, sizes: new Map(keys.map((k, i) => [k, release.sizes[i]])) };
}

/** The pool-size fields of a ledger reservation (the certificate verifier compares them with its `poolSizes`). */
export function sizeParameters(source: PoolSizeSource): { poolSizes: string; poolSizeEpsilon?: number } {
  return source.kind === 'noisy' ? { poolSizes: source.kind, poolSizeEpsilon: source.epsilon } : { poolSizes: source.kind };
}
