/**
 * Private sizes for the services (issue 20): a dataset's setting "size is public" (off by
 * default), and the calls every private release that needs pool sizes makes.
 * `chargeSizeRelease` releases noisy sizes and charges them as their own ledger entry before
 * anything is priced or refused from them: synthesis (q and the certificate) and private
 * answering (the sampling rate). `releaseDatasetSizes` draws them without charging: for the
 * budget's default δ, whose entry's transaction charges the release, and for audits, which
 * release nothing (docs/audit.md).
 */
import type { PrivacyEvent } from '../../../core/accounting/events';
import { RefusalError } from '../refusalError';
import { POOL_SIZE_EPSILON, poolSizeEvent, poolSizeSource, releasePoolSizes, sizeReleaseHash, type PoolSizeRelease, type PoolSizeSource } from '../../../core/icl/noisyPoolSizes';
import { cryptoRandom } from '../../../core/random/cryptoRandom';
import type { RandomSource } from '../../../core/random/randomSource';
import type { Queryable } from '../db/database';
import { resolveDataset, type DatasetRef } from '../ledger/datasets';
import type { LedgerService } from '../ledger/ledgerService';

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

/** Where a size release charged on its own sits in the ledger (null: declared public, nothing charged). */
export type SizeLedgerEntry = { entryId: number; entryHash: string } | null;

/**
 * The sizes released and charged BEFORE anything is priced or refused from them (ARCHITECTURE
 * §4): the release's event is reserved first (over budget: refused, nothing drawn, nothing
 * written), then drawn from the CSPRNG, then committed with the hash of the released sizes.
 * Whatever follows — a price, a refusal, the job's own reservation — depends on the private
 * sizes only through this charged release. Declared public: the exact sizes, no entry.
 * The mechanism (core/icl/noisyPoolSizes.ts): discrete Laplace counts, neighbouring add/remove
 * one privacy unit, ℓ1 sensitivity 1 per record or the number of pools per subject, event pure(0.1).
 */
export async function chargeSizeRelease<K>(
  ledger: Pick<LedgerService, 'reserve' | 'commit'>,
  dataset: SizedDataset & { id: number },
  exact: ReadonlyMap<K, number>,
  purpose: string,
  random: RandomSource = cryptoRandom,
): Promise<ReturnType<typeof releaseDatasetSizes<K>> & { ledger: SizeLedgerEntry }> {
  const source = poolSizeSource(exact.size, dataset.privacyUnit, dataset.sizePublic === true);
  const event = poolSizeEvent(dataset.sizePublic === true);
  if (source.kind === 'declared-public' || event === null) return { ...releaseDatasetSizes(dataset, exact, random), ledger: null };
  const reservation = await ledger.reserve(dataset.id, event, { purpose, parameters: sizeParameters(source), privacyUnit: dataset.privacyUnit });
  const release = releaseDatasetSizes(dataset, exact, random);
  const commit = await ledger.commit(reservation.id, { outputHash: await sizeReleaseHash([...release.sizes.values()]) });
  return { ...release, event, ledger: { entryId: commit.id, entryHash: commit.entryHash } };
}

/**
 * Refused before any size is drawn: a release calibrated so that it costs ε in all (size
 * release included, within the calibration's 0.1 %) at the request's δ cannot fit under a cap
 * below 0.99·ε, and this depends on the request and the cap only. The ledger composes at the
 * budget's δ: where the request's δ is smaller, the release costs less there and may fit, so
 * nothing is refused early (the ledger's reservation still refuses what does not fit).
 */
export function refuseAboveCap(request: { epsilon: number; delta?: number }, budget: { cap: number; delta: number } | null | undefined): void {
  if (!budget || (request.delta !== undefined && request.delta < budget.delta)) return;
  if (request.epsilon * 0.99 > budget.cap) throw new RefusalError(`ε = ${request.epsilon} exceeds the budget cap of ${budget.cap} on its own: lower ε`);
}

/** A job's ε must exceed the size release it pays for first (`what`: whose sizes): refused before anything is drawn (it depends on the request and the dataset's setting only). */
export function refuseBelowSizeRelease(epsilon: number, sizeEvent: PrivacyEvent | null, what: string): void {
  if (sizeEvent && epsilon <= POOL_SIZE_EPSILON) {
    throw new RefusalError(`ε = ${epsilon} does not cover the ε = ${POOL_SIZE_EPSILON} charged for ${what}: raise ε, or declare the dataset's size public (veil sizes set)`);
  }
}
