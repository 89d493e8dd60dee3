/**
 * ROC analysis of a membership-inference score (higher = "member"): the ROC curve with
 * tied scores taken as one threshold step (a tie moves TPR and FPR together, a diagonal
 * segment), AUROC as the Mann–Whitney probability P(score_member > score_non-member) with
 * ties counted ½ (equal to the trapezoid area under that curve), TPR at a fixed FPR as the
 * largest TPR of a threshold whose FPR does not exceed it (the conservative reading used by
 * Carlini et al., "Membership inference attacks from first principles", 2022), and the
 * membership advantage max(TPR − FPR) (Yeom et al. 2018).
 */
export interface RocPoint {
  fpr: number;
  tpr: number;
  /** Candidates scoring at least this are called members (Infinity for the (0,0) point). */
  threshold: number;
}

export interface ScoredCandidate {
  score: number;
  member: boolean;
}

function counts(candidates: readonly ScoredCandidate[]): { positives: number; negatives: number } {
  const positives = candidates.filter((c) => c.member).length;
  const negatives = candidates.length - positives;
  if (positives === 0 || negatives === 0) throw new Error('ROC needs at least one member and one non-member');
  if (candidates.some((c) => Number.isNaN(c.score))) throw new Error('a membership score is NaN');
  return { positives, negatives };
}

/** The ROC curve from (0,0) to (1,1), one point per distinct score, highest score first. */
export function rocCurve(candidates: readonly ScoredCandidate[]): RocPoint[] {
  const { positives, negatives } = counts(candidates);
  const sorted = [...candidates].sort((a, b) => b.score - a.score);
  const points: RocPoint[] = [{ fpr: 0, tpr: 0, threshold: Infinity }];
  let tp = 0;
  let fp = 0;
  for (let i = 0; i < sorted.length; ) {
    const threshold = sorted[i].score;
    for (; i < sorted.length && sorted[i].score === threshold; i++) {
      if (sorted[i].member) tp++;
      else fp++;
    }
    points.push({ fpr: fp / negatives, tpr: tp / positives, threshold });
  }
  return points;
}

/** Area under the ROC curve: P(member scores higher) + ½ P(tie), by ranks (O(n log n)). */
export function auroc(candidates: readonly ScoredCandidate[]): number {
  const { positives, negatives } = counts(candidates);
  const sorted = [...candidates].sort((a, b) => a.score - b.score);
  let rankSum = 0;
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j < sorted.length && sorted[j].score === sorted[i].score) j++;
    const midRank = (i + 1 + j) / 2; // ranks i+1 … j share their mean
    for (let k = i; k < j; k++) if (sorted[k].member) rankSum += midRank;
    i = j;
  }
  return (rankSum - (positives * (positives + 1)) / 2) / (positives * negatives);
}

/** The largest TPR among thresholds whose FPR is at most `fpr`. */
export function tprAtFpr(curve: readonly RocPoint[], fpr: number): number {
  let best = 0;
  for (const p of curve) if (p.fpr <= fpr + 1e-12) best = Math.max(best, p.tpr);
  return best;
}

/** Membership advantage: max over thresholds of TPR − FPR. */
export function advantage(curve: readonly RocPoint[]): number {
  return Math.max(...curve.map((p) => p.tpr - p.fpr));
}
