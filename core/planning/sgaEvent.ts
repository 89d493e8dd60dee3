/**
 * The privacy event of one query answered by semantic group aggregation (SGA: Joo, Koh & Jung,
 * public-data-assisted DP in-context learning), for the planner and the answering jobs alike: the
 * teachers' answers are clustered by DPM (core/mechanisms/privateMondrian.ts — sensitivities and
 * the neighbouring relation are stated there), everything else (public candidates, selection) is
 * post-processing.
 *
 * One public noise parameter ρ (larger ρ, less noise) is split by a fixed public rule, sized as if
 * it were the unsampled query's zCDP budget:
 * - SPLIT_SHARE of ρ to the splits, equally over the depth levels: a level's exponential
 *   mechanisms are levelEpsilon-DP, and ε-DP is ε²/8-zCDP for the exponential mechanism (Cesar &
 *   Rogers 2021, bounded range), so levelEpsilon = √(8·ρ_split/depth);
 * - COUNT_SHARE to the leaf counts (sensitivity √2): σ_count = √2/√(2ρ_count) = 1/√ρ_count;
 * - the rest to the leaf sums (sensitivity 2): σ_sum = 2/√(2ρ_sum) = √(2/ρ_sum).
 * The shares only fix the noise; the charge is the event itself — sequence([composed(pure(ε_level),
 * depth), gaussian(σ_count, √2), gaussian(σ_sum, 2)]) — on one Poisson(q) sample (all steps see the
 * same teachers): poissonSampled(q, that). PLD accounts it as one product pair (pureAndGaussianLoss;
 * a pure step there is randomised response, not the bounded-range ε²/8 the split assumes, so the
 * charge is sound but above ρ: ρ is a noise parameter, not the charged zCDP); RDP's general
 * subsampled bound (core/accounting/rdp/poissonGeneral.ts) is the cross-check.
 */
import type { PrivacyEvent } from '../accounting/events';
import { dpmEvent, type DpmNoise } from '../mechanisms/privateMondrian';

const SGA_SPLIT_SHARE = 0.25;
const SGA_COUNT_SHARE = 0.25;
/** Split levels of the DPM tree when the request names none (up to 4 clusters). */
export const DEFAULT_SGA_DEPTH = 2;

export function sgaNoise(rho: number, depth: number): DpmNoise {
  if (!(rho > 0) || !Number.isFinite(rho)) throw new RangeError(`sgaNoise: ρ must be finite and > 0, got ${rho}`);
  if (!Number.isInteger(depth) || depth < 1) throw new RangeError(`sgaNoise: depth must be a positive integer, got ${depth}`);
  const levelEpsilon = Math.sqrt((8 * SGA_SPLIT_SHARE * rho) / depth);
  return {
    levelEpsilon,
    sigmaCount: 1 / Math.sqrt(SGA_COUNT_SHARE * rho),
    sigmaSum: Math.sqrt(2 / ((1 - SGA_SPLIT_SHARE - SGA_COUNT_SHARE) * rho)),
  };
}

/** The unsampled query's event at ρ (what clusterAnswers reports). */
export function sgaMechanismEvent(rho: number, depth: number): PrivacyEvent {
  const { levelEpsilon, sigmaCount, sigmaSum } = sgaNoise(rho, depth);
  return dpmEvent(depth, { levelEpsilon, sigmaCount, sigmaSum });
}
