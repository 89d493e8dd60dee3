/**
 * The metrics of one score series: ROC curve, AUROC with its bootstrap interval, TPR at
 * FPR 1 % and 0.1 %, and the membership advantage. The curve is thinned for storage and
 * plotting to at most MAX_POINTS points, always keeping both ends and the points that set
 * the TPR at low FPR (the first points).
 */
import type { RandomSource } from '../random/randomSource';
import { bootstrapAurocInterval, type Interval } from './bootstrap';
import { advantage, auroc, rocCurve, tprAtFpr, type ScoredCandidate } from './roc';

export interface ScoreMetrics {
  members: number;
  nonMembers: number;
  auroc: number;
  aurocInterval: Interval;
  tprAt1: number;
  tprAt01: number;
  advantage: number;
  curve: { fpr: number; tpr: number }[];
}

const MAX_POINTS = 400;

function thin(curve: { fpr: number; tpr: number }[]): { fpr: number; tpr: number }[] {
  if (curve.length <= MAX_POINTS) return curve;
  const head = curve.slice(0, MAX_POINTS / 2);
  const rest = curve.slice(MAX_POINTS / 2);
  const step = rest.length / (MAX_POINTS / 2);
  const tail = Array.from({ length: MAX_POINTS / 2 }, (_, i) => rest[Math.floor(i * step)]);
  return [...head, ...tail, curve[curve.length - 1]];
}

export function scoreMetrics(candidates: readonly ScoredCandidate[], random: RandomSource, replicates = 1000, level = 0.95): ScoreMetrics {
  const curve = rocCurve(candidates);
  const members = candidates.filter((c) => c.member).length;
  return {
    members,
    nonMembers: candidates.length - members,
    auroc: auroc(candidates),
    aurocInterval: bootstrapAurocInterval(candidates, random, replicates, level),
    tprAt1: tprAtFpr(curve, 0.01),
    tprAt01: tprAtFpr(curve, 0.001),
    advantage: advantage(curve),
    curve: thin(curve.map(({ fpr, tpr }) => ({ fpr, tpr }))),
  };
}
