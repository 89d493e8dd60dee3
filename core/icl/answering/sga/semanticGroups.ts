/**
 * Semantic group aggregation (SGA: Joo, Koh & Jung, public-data-assisted DP in-context
 * learning): the private teachers' answer embeddings are clustered privately by DPM
 * (core/mechanisms/privateMondrian.ts) in a basis of the public ensemble's answers
 * (publicBasis.ts), and for the largest noisy clusters the nearest PUBLIC answer becomes a
 * candidate. Only the DPM release touches private data; projecting, ranking clusters, centres
 * (noisy sum / noisy count) and picking public answers are post-processing. No private answer
 * is ever a candidate or released.
 *
 * Neighbouring: one privacy unit changes at most one teacher's answer, i.e. one private point
 * (ARCHITECTURE §4); public answers never change a sensitivity. Event per query:
 * sgaMechanismEvent(ρ, depth) (core/planning/sgaEvent.ts), Poisson-sampled by the caller's q.
 */
import type { PrivacyEvent } from '../../../accounting/events';
import { privateMondrian } from '../../../mechanisms/privateMondrian';
import { DEFAULT_SGA_DEPTH, sgaNoise } from '../../../planning/sgaEvent';
import type { RandomSource } from '../../../random/randomSource';
import { requirePrivateRandom } from '../../../random/privatePathRandom';
import { project, publicBasis } from './publicBasis';

export interface SgaSettings {
  /** Split levels of the DPM tree: up to 2^depth clusters. */
  depth: number;
  /** Candidate split positions per dimension of a node: grid − 1. */
  grid: number;
  /** Dimensions of the public basis the answers are projected on. */
  projection: number;
  /** Weight of a public answer in the split utilities (0: private answers only). */
  publicWeight: number;
}

export const DEFAULT_SGA_SETTINGS: SgaSettings = Object.freeze({ depth: DEFAULT_SGA_DEPTH, grid: 16, projection: 4, publicWeight: 1 });

export interface SgaCluster {
  /** Gaussian noisy count, > 0 (clusters whose noisy count is ≤ 0 are omitted, never redrawn). */
  noisyCount: number;
  /** Noisy sum / max(1, noisy count), in the projected space. */
  centre: Float64Array;
  /** Index (into the public embeddings) of the public answer nearest to the centre. */
  nearestPublic: number;
}

export interface SgaRelease {
  /** Largest noisy count first (ties: tree order). */
  clusters: SgaCluster[];
  /** sgaMechanismEvent(ρ, depth); null when non-private (ρ = null). */
  event: PrivacyEvent | null;
}

function validateSettings(s: SgaSettings): void {
  const integer = (name: string, value: number, lo: number, hi: number) => {
    if (!Number.isInteger(value) || value < lo || value > hi) throw new RangeError(`SGA ${name} must be an integer in [${lo}, ${hi}], got ${value}`);
  };
  integer('depth', s.depth, 1, 6);
  integer('grid', s.grid, 2, 64);
  integer('projection', s.projection, 1, 32);
  if (!(s.publicWeight >= 0) || !Number.isFinite(s.publicWeight)) throw new RangeError('SGA publicWeight must be finite and ≥ 0');
}

const squaredDistance = (x: Float64Array, y: Float64Array) => x.reduce((sum, v, i) => sum + (v - y[i]) ** 2, 0);

/**
 * DPM clustering of the private answers (null: a teacher without an answer) with the public
 * answers as public points; ρ = null is the exact, non-private clustering (evaluation's ε = ∞).
 */
export function clusterAnswers(
  privateEmbeddings: readonly (ArrayLike<number> | null)[],
  publicEmbeddings: readonly ArrayLike<number>[],
  settings: SgaSettings,
  rho: number | null,
  random: RandomSource,
): SgaRelease {
  validateSettings(settings);
  if (rho !== null) requirePrivateRandom(random, 'semantic group aggregation');
  if (publicEmbeddings.length === 0) throw new Error('semantic group aggregation needs public answers (the public ensemble gave none)');
  const dimension = publicEmbeddings[0].length;
  for (const e of [...publicEmbeddings, ...privateEmbeddings]) {
    if (e !== null && e.length !== dimension) throw new RangeError(`an answer embedding has ${e.length} dimensions, expected ${dimension}`);
  }
  const basis = publicBasis(publicEmbeddings, settings.projection);
  const privatePoints = privateEmbeddings.filter((e): e is ArrayLike<number> => e !== null).map((e) => project(e, basis));
  const publicPoints = publicEmbeddings.map((e) => project(e, basis));
  const noise = rho === null ? null : sgaNoise(rho, settings.depth);
  const { output, event } = privateMondrian(
    privatePoints,
    publicPoints,
    basis.length,
    { depth: settings.depth, grid: settings.grid, publicWeight: settings.publicWeight, noise: noise && { levelEpsilon: noise.levelEpsilon, sigmaCount: noise.sigmaCount, sigmaSum: noise.sigmaSum } },
    random,
  );
  const clusters = output.leaves
    .filter((leaf) => leaf.noisyCount > 0)
    .map((leaf) => {
      const centre = leaf.noisySum.map((v) => v / Math.max(1, leaf.noisyCount));
      let nearestPublic = 0;
      publicPoints.forEach((p, i) => {
        if (squaredDistance(p, centre) < squaredDistance(publicPoints[nearestPublic], centre)) nearestPublic = i;
      });
      return { noisyCount: leaf.noisyCount, centre, nearestPublic };
    })
    .sort((a, b) => b.noisyCount - a.noisyCount);
  return { clusters, event };
}

/** The candidates: nearest public answers of the k largest clusters, distinct, largest cluster first ([] when no cluster survived). */
export function sgaCandidates(release: SgaRelease, k: number): number[] {
  if (!Number.isInteger(k) || k < 1) throw new RangeError('sgaCandidates: k must be a positive integer');
  return [...new Set(release.clusters.slice(0, k).map((c) => c.nearestPublic))];
}
