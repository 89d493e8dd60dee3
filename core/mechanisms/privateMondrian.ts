/**
 * Private Mondrian-style clustering (DPM: Liebenow, Schütt, Braun, Gehrke, Thaeter & Mohammadi,
 * "DPM: Clustering Sensitive Data through Separation", ACM CCS 2024): recursive axis-aligned
 * splits of a public domain, each chosen by the exponential mechanism among a public grid of
 * positions, favouring balanced splits through empty regions; then every leaf's size by a noisy
 * count and its centre from a Gaussian noisy sum of clipped points.
 *
 * Privacy input: the private points, one per teacher (ARCHITECTURE §4: adding/removing one privacy
 * unit changes at most one teacher's answer). Neighbouring here: one private point added, removed
 * or replaced (e → e′). Public points (weight `publicWeight`) join the split utilities only; they
 * add a data-independent term and never change a sensitivity.
 *
 * Public, fixed bounds: every point is clipped to the unit ℓ2 ball, so lies in [−1, 1]^d, the root
 * domain — never the data's min/max. A node's candidates are the grid − 1 inner positions of its
 * box (splitCandidates: a function of the released box only), so every released boundary is on the
 * public lattice −1 + 2m/grid^depth.
 *
 * The tree is full: every node of every level is split (empty or not), so which mechanisms run is
 * data-independent and the charge is the maximum (ARCHITECTURE §4).
 *
 * Sensitivities and events:
 * - Split utility of (dimension j, position s): u = min(left, right) − gap, with left/right the
 *   (weighted) points below / at-or-above s and gap those within half a grid step of s. Adding or
 *   removing one private point moves u by at most 1 (it raises gap or one side by 1; when both, u
 *   is unchanged), replacing one within a node by at most 2. Each node's exponential mechanism runs
 *   at levelEpsilon/2 with sensitivity 1: a replacement touches either one node (change ≤ 2, loss ≤
 *   levelEpsilon) or two nodes of the level, the point leaving one and joining another (change ≤ 1
 *   in each, loss ≤ 2·levelEpsilon/2). Nodes of a level are disjoint, so the level is
 *   pure(levelEpsilon); the levels compose adaptively: composed(pure(levelEpsilon), depth).
 * - Leaf counts (private points only): a replacement moves one point between two leaves (ℓ2 √2), an
 *   addition raises one count (1): Gaussian, sensitivity √2. Released as drawn: a negative noisy
 *   count is post-processed (its cluster omitted by the caller), never redrawn.
 * - Leaf sums of the clipped points, all leaves concatenated: ‖e − e′‖ ≤ 2 within a leaf,
 *   √(‖e‖² + ‖e′‖²) ≤ √2 across leaves, 1 for an addition: Gaussian, sensitivity 2.
 * Event: sequence([composed(pure(levelEpsilon), depth), gaussian(σ_count, √2), gaussian(σ_sum, 2)]).
 * A null noise setting is the exact, non-private clustering (evaluation's ε = ∞; no event).
 */
import { composed, pureDp, sequence, type PrivacyEvent } from '../accounting/events';
import { cryptoRandom } from '../random/cryptoRandom';
import type { RandomSource } from '../random/randomSource';
import { exponentialMechanism } from './exponentialMechanism';
import { gaussianMechanism } from './gaussianMechanism';
import { requirePositive } from './types';

/** Sensitivity of a split utility under adding/removing one private point. */
const DPM_SPLIT_SENSITIVITY = 1;
/** ℓ2 sensitivity of the leaf counts (a point moves between two leaves). */
const DPM_COUNT_SENSITIVITY = Math.SQRT2;
/** ℓ2 sensitivity of the concatenated leaf sums of unit-ball points. */
const DPM_SUM_SENSITIVITY = 2;

export interface DpmNoise {
  /** ε of one level's splits (each node's exponential mechanism runs at half of it). */
  levelEpsilon: number;
  sigmaCount: number;
  sigmaSum: number;
}

export interface DpmParams {
  /** Split levels: 2^depth leaves. */
  depth: number;
  /** A node's candidate positions per dimension: grid − 1 inner points of its box. */
  grid: number;
  /** Weight of a public point in the split utilities (0: private points only). */
  publicWeight: number;
  /** null: the exact, non-private clustering. */
  noise: DpmNoise | null;
}

export interface DpmLeaf {
  lower: Float64Array;
  upper: Float64Array;
  /** Noisy count of the private points in the leaf, as drawn (may be negative). */
  noisyCount: number;
  /** Noisy sum of the clipped private points in the leaf. */
  noisySum: Float64Array;
}

export interface DpmSplit {
  dimension: number;
  position: number;
}

/** The released event for `depth` levels at `noise` (the one the mechanism reports). */
export function dpmEvent(depth: number, noise: DpmNoise): PrivacyEvent {
  return sequence([
    composed(pureDp(noise.levelEpsilon), depth),
    { kind: 'gaussian', sigma: noise.sigmaCount, sensitivity: DPM_COUNT_SENSITIVITY, neighbouring: 'add-remove' },
    { kind: 'gaussian', sigma: noise.sigmaSum, sensitivity: DPM_SUM_SENSITIVITY, neighbouring: 'add-remove' },
  ]);
}

/** A node's candidate split positions: the grid's inner points of its (public) box, per dimension. */
export function splitCandidates(lower: ArrayLike<number>, upper: ArrayLike<number>, grid: number): DpmSplit[] {
  const candidates: DpmSplit[] = [];
  for (let j = 0; j < lower.length; j++) {
    for (let k = 1; k < grid; k++) candidates.push({ dimension: j, position: lower[j] + (k * (upper[j] - lower[j])) / grid });
  }
  return candidates;
}

/** x · min(1, 1/‖x‖): the unit ball the sensitivities rely on. */
function clipToUnitBall(point: ArrayLike<number>, dimension: number): Float64Array {
  if (point.length !== dimension) throw new RangeError(`a point has ${point.length} dimensions, expected ${dimension}`);
  let norm = 0;
  for (let i = 0; i < dimension; i++) {
    if (!Number.isFinite(point[i])) throw new RangeError('a point has a non-finite coordinate');
    norm += point[i] * point[i];
  }
  const scale = Math.min(1, 1 / Math.sqrt(norm || 1));
  return Float64Array.from({ length: dimension }, (_, i) => point[i] * scale);
}

interface Node {
  lower: Float64Array;
  upper: Float64Array;
  privatePoints: Float64Array[];
  publicPoints: Float64Array[];
}

function splitUtilities(node: Node, candidates: readonly DpmSplit[], grid: number, publicWeight: number): Float64Array {
  const utilities = new Float64Array(candidates.length);
  candidates.forEach(({ dimension: j, position: s }, c) => {
    const halfGap = (node.upper[j] - node.lower[j]) / (2 * grid);
    let left = 0;
    let right = 0;
    let gap = 0;
    const tally = (x: Float64Array, w: number) => {
      if (x[j] < s) left += w;
      else right += w;
      if (Math.abs(x[j] - s) < halfGap) gap += w;
    };
    for (const x of node.privatePoints) tally(x, 1);
    for (const x of node.publicPoints) tally(x, publicWeight);
    utilities[c] = Math.min(left, right) - gap;
  });
  return utilities;
}

const argmaxIndex = (values: Float64Array) => values.reduce((best, v, i) => (v > values[best] ? i : best), 0);

function splitNode(node: Node, split: DpmSplit): [Node, Node] {
  const { dimension: j, position: s } = split;
  const below = (x: Float64Array) => x[j] < s;
  const leftUpper = Float64Array.from(node.upper);
  leftUpper[j] = s;
  const rightLower = Float64Array.from(node.lower);
  rightLower[j] = s;
  return [
    { lower: node.lower, upper: leftUpper, privatePoints: node.privatePoints.filter(below), publicPoints: node.publicPoints.filter(below) },
    { lower: rightLower, upper: node.upper, privatePoints: node.privatePoints.filter((x) => !below(x)), publicPoints: node.publicPoints.filter((x) => !below(x)) },
  ];
}

function validate(params: DpmParams, dimension: number): void {
  if (!Number.isInteger(params.depth) || params.depth < 1 || params.depth > 8) throw new RangeError('privateMondrian: depth must be an integer in [1, 8]');
  if (!Number.isInteger(params.grid) || params.grid < 2 || params.grid > 256) throw new RangeError('privateMondrian: grid must be an integer in [2, 256]');
  if (!Number.isInteger(dimension) || dimension < 1) throw new RangeError('privateMondrian: dimension must be a positive integer');
  if (!(params.publicWeight >= 0) || !Number.isFinite(params.publicWeight)) throw new RangeError('privateMondrian: publicWeight must be finite and ≥ 0');
  if (params.noise) {
    requirePositive('levelEpsilon', params.noise.levelEpsilon);
    requirePositive('sigmaCount', params.noise.sigmaCount);
    requirePositive('sigmaSum', params.noise.sigmaSum);
  }
}

/**
 * The DPM release: all 2^depth leaves in tree order (left before right), with their public boxes,
 * noisy counts and noisy sums, and the event charged (null when non-private).
 */
export function privateMondrian(
  privatePoints: readonly ArrayLike<number>[],
  publicPoints: readonly ArrayLike<number>[],
  dimension: number,
  params: DpmParams,
  random: RandomSource = cryptoRandom,
): { output: { leaves: DpmLeaf[] }; event: PrivacyEvent | null } {
  validate(params, dimension);
  const { noise } = params;
  let level: Node[] = [
    {
      lower: new Float64Array(dimension).fill(-1),
      upper: new Float64Array(dimension).fill(1),
      privatePoints: privatePoints.map((p) => clipToUnitBall(p, dimension)),
      publicPoints: publicPoints.map((p) => clipToUnitBall(p, dimension)),
    },
  ];
  for (let l = 0; l < params.depth; l++) {
    level = level.flatMap((node) => {
      const candidates = splitCandidates(node.lower, node.upper, params.grid);
      const utilities = splitUtilities(node, candidates, params.grid, params.publicWeight);
      const chosen = noise
        ? exponentialMechanism(utilities, { epsilon: noise.levelEpsilon / 2, sensitivity: DPM_SPLIT_SENSITIVITY }, random).output
        : argmaxIndex(utilities);
      return splitNode(node, candidates[chosen]);
    });
  }
  const counts = level.map((node) => node.privatePoints.length);
  const sums = new Float64Array(level.length * dimension);
  level.forEach((node, leaf) => node.privatePoints.forEach((x) => x.forEach((v, i) => (sums[leaf * dimension + i] += v))));
  const noisyCounts = noise ? gaussianMechanism(counts, { sigma: noise.sigmaCount, l2Sensitivity: DPM_COUNT_SENSITIVITY }, random).output : Float64Array.from(counts);
  const noisySums = noise ? gaussianMechanism(sums, { sigma: noise.sigmaSum, l2Sensitivity: DPM_SUM_SENSITIVITY }, random).output : sums;
  const leaves = level.map((node, leaf) => ({
    lower: node.lower,
    upper: node.upper,
    noisyCount: noisyCounts[leaf],
    noisySum: noisySums.slice(leaf * dimension, (leaf + 1) * dimension),
  }));
  return { output: { leaves }, event: noise ? dpmEvent(params.depth, noise) : null };
}
