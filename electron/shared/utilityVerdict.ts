/**
 * The utility check's result in one plain sentence: does the DP prompt do better than
 * always answering the most common label (balanced accuracy 1/labels) and than zero-shot?
 * A margin of 2 points counts as "no better" (200 held-out records measure no finer).
 */
import type { z } from 'zod';
import type { utilitySchema } from './api/synthesis';

type Utility = z.infer<typeof utilitySchema>;

const MARGIN = 0.02;
const pts = (x: number) => `${(100 * x).toFixed(1)} %`;

export function utilityVerdict(u: Utility): string {
  if (u.metric !== 'accuracy' || !u.balanced || !u.mostCommon || !u.labels) {
    return u.synthetic > u.zeroShot + MARGIN
      ? `The DP prompt does better than zero-shot (ROUGE-L ${pts(u.synthetic)} against ${pts(u.zeroShot)}).`
      : `The DP prompt is no better than zero-shot (ROUGE-L ${pts(u.synthetic)} against ${pts(u.zeroShot)}).`;
  }
  const constant = 1 / Object.keys(u.labels).length;
  const dp = u.balanced.synthetic;
  if (dp <= constant + MARGIN) return `The DP prompt is no better than always answering “${u.mostCommon.label}” (balanced accuracy ${pts(dp)} against ${pts(constant)}).`;
  if (dp <= u.balanced.zeroShot + MARGIN) return `The DP prompt is no better than no demonstrations at all (balanced accuracy ${pts(dp)}, zero-shot ${pts(u.balanced.zeroShot)}).`;
  return `The DP prompt does better than always answering “${u.mostCommon.label}” and than zero-shot (balanced accuracy ${pts(dp)} against ${pts(constant)} and ${pts(u.balanced.zeroShot)}).`;
}
