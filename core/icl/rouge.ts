/**
 * ROUGE-L F1 (Lin, "ROUGE: A Package for Automatic Evaluation of Summaries", 2004, §3):
 * the longest common subsequence of lower-cased word tokens, as recall and precision
 * combined with β = 1.
 */
const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

function lcsLength(a: readonly string[], b: readonly string[]): number {
  let previous = new Int32Array(b.length + 1);
  let current = new Int32Array(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      current[j] = a[i - 1] === b[j - 1] ? previous[j - 1] + 1 : Math.max(previous[j], current[j - 1]);
    }
    [previous, current] = [current, previous];
  }
  return previous[b.length];
}

export function rougeL(candidate: string, reference: string): number {
  const c = words(candidate);
  const r = words(reference);
  if (c.length === 0 || r.length === 0) return 0;
  const lcs = lcsLength(c, r);
  if (lcs === 0) return 0;
  const recall = lcs / r.length;
  const precision = lcs / c.length;
  return (2 * recall * precision) / (recall + precision);
}
