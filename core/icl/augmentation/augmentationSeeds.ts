/**
 * Augmenting a thin public set (issue 15 item 5): the public examples nearest to PRIVATELY
 * estimated centres of the private split's embeddings become the seeds a model writes new
 * public examples from. The only private release is the DPM clustering of semanticGroups.ts
 * (core/mechanisms/privateMondrian.ts: exponential-mechanism splits, Gaussian leaf counts and
 * sums) on the WHOLE private split — no subsampling — so the event is sgaMechanismEvent(ρ, depth)
 * (core/planning/sgaEvent.ts), charged once. Centres are noisy sum / noisy count; choosing the
 * nearest public examples, and what the model writes from those public examples, is
 * post-processing — except one check: a written text the dataset already holds is written again
 * (augmentationService.ts), so a text equal to a private record is never released. That makes
 * the released texts depend on the private split beyond the DPM release, by which texts are
 * absent; it is far smaller than what the vault's dropping such texts revealed before.
 *
 * Neighbouring (add/remove one privacy unit): each unit contributes exactly one point of norm ≤ 1.
 * For subject-level datasets that point is the clipped mean of the subject's record embeddings
 * (unitPoint): adding or removing a subject adds or removes one such point, the sensitivity DPM
 * assumes (count √2 and sum 2 under its convention, stated in privateMondrian.ts).
 */
import type { PrivacyEvent } from '../../accounting/events';
import { sgaMechanismEvent } from '../../planning/sgaEvent';
import type { RandomSource } from '../../random/randomSource';
import { clusterAnswers, DEFAULT_SGA_SETTINGS, sgaCandidates, type SgaSettings } from '../answering/sga/semanticGroups';

/** Default ε of an augmentation (a small budget). */
export const DEFAULT_AUGMENTATION_EPSILON = 0.5;

/**
 * One privacy unit's point: the mean of its records' embeddings, each clipped to norm ≤ 1, then
 * the mean clipped to norm ≤ 1 (a record-level unit is its one record, clipped).
 */
export function unitPoint(records: readonly ArrayLike<number>[]): Float64Array {
  if (records.length === 0) throw new RangeError('unitPoint: a privacy unit needs at least one record embedding');
  const dimension = records[0].length;
  const mean = new Float64Array(dimension);
  for (const r of records) {
    if (r.length !== dimension) throw new RangeError(`unitPoint: an embedding has ${r.length} dimensions, expected ${dimension}`);
    const scale = 1 / Math.max(1, Math.hypot(...Array.from(r)));
    for (let i = 0; i < dimension; i++) mean[i] += (r[i] * scale) / records.length;
  }
  const norm = Math.hypot(...mean);
  return norm > 1 ? mean.map((v) => v / norm) : mean;
}

/** The event of one augmentation at ρ: the DPM event on the whole private split (no sampling). */
export function augmentationEvent(rho: number, depth: number = DEFAULT_SGA_SETTINGS.depth): PrivacyEvent {
  return sgaMechanismEvent(rho, depth);
}

export interface AugmentationSeeds {
  /** Indices into the public embeddings, the nearest public example of each surviving cluster, largest cluster first, distinct. */
  seeds: number[];
  /** Noisy counts of the surviving clusters (released, largest first). */
  noisyCounts: number[];
  /** The event the clustering charged (= augmentationEvent(ρ, depth)). */
  event: PrivacyEvent;
}

/**
 * DPM clustering of the units' points (one per privacy unit, unitPoint) with the public
 * examples' embeddings as public points; seeds = the public examples nearest to the noisy centres.
 */
export function augmentationSeeds(
  /** One point per privacy unit; null: a unit the model could embed none of (it adds no point). */
  unitPoints: readonly (ArrayLike<number> | null)[],
  publicEmbeddings: readonly ArrayLike<number>[],
  rho: number,
  random: RandomSource,
  settings: SgaSettings = DEFAULT_SGA_SETTINGS,
): AugmentationSeeds {
  if (publicEmbeddings.length === 0) throw new RangeError('augmentation needs public examples to seed from (the public split is empty)');
  const release = clusterAnswers(unitPoints, publicEmbeddings, settings, rho, random);
  return { seeds: sgaCandidates(release, 2 ** settings.depth), noisyCounts: release.clusters.map((c) => c.noisyCount), event: release.event! };
}
