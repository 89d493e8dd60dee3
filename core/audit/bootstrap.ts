/**
 * Percentile bootstrap confidence interval of the AUROC (Efron & Tibshirani 1993, §13.3),
 * stratified: each replicate resamples the members and the non-members separately with
 * replacement, so every replicate keeps both classes and their sizes.
 */
import type { RandomSource } from '../random/randomSource';
import { uniformInt } from '../random/uniform';
import { auroc, type ScoredCandidate } from './roc';

export interface Interval {
  lower: number;
  upper: number;
  /** Confidence level, e.g. 0.95. */
  level: number;
  replicates: number;
}

function resample<T>(items: readonly T[], random: RandomSource): T[] {
  return items.map(() => items[uniformInt(random, items.length)]);
}

function quantile(sorted: readonly number[], p: number): number {
  const at = p * (sorted.length - 1);
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (at - lo);
}

export function bootstrapAurocInterval(candidates: readonly ScoredCandidate[], random: RandomSource, replicates = 1000, level = 0.95): Interval {
  const members = candidates.filter((c) => c.member);
  const others = candidates.filter((c) => !c.member);
  const values: number[] = [];
  for (let b = 0; b < replicates; b++) values.push(auroc([...resample(members, random), ...resample(others, random)]));
  values.sort((a, b) => a - b);
  const tail = (1 - level) / 2;
  return { lower: quantile(values, tail), upper: quantile(values, 1 - tail), level, replicates };
}
