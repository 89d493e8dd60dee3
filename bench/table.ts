/**
 * The rows of issue 18's table ("where users wait"): each benchmark returns its rows under
 * `table`, with the target and a reference measured in the same run (the machine is shared,
 * so the ratio to the reference is the figure to compare across runs); run.ts prints them.
 */
export interface TableRow {
  what: string;
  /** Seconds measured (median). */
  seconds: number;
  /** Target in seconds, when the issue sets one. */
  targetSeconds: number | null;
  reference: { what: string; seconds: number } | null;
  ratioToReference: number | null;
  withinTarget: boolean | null;
}

export function tableRow(what: string, seconds: number, targetSeconds: number | null, reference: { what: string; seconds: number } | null = null): TableRow {
  return {
    what,
    seconds: +seconds.toPrecision(4),
    targetSeconds,
    reference: reference && { what: reference.what, seconds: +reference.seconds.toPrecision(4) },
    ratioToReference: reference ? +(seconds / reference.seconds).toFixed(2) : null,
    withinTarget: targetSeconds === null ? null : seconds <= targetSeconds,
  };
}

const fmt = (s: number) => (s < 1 ? `${(s * 1000).toFixed(s < 0.01 ? 2 : 0)} ms` : `${s.toFixed(2)} s`);

/** One line per row: measured, target, ratio to the in-run reference. */
export function formatRows(rows: readonly TableRow[]): string {
  return rows
    .map((r) => {
      const target = r.targetSeconds === null ? 'no target' : `target ≤ ${fmt(r.targetSeconds)} ${r.withinTarget ? 'met' : 'MISSED'}`;
      const ratio = r.reference ? `; ${r.ratioToReference}× ${r.reference.what} (${fmt(r.reference.seconds)})` : '';
      return `  ${r.what}: ${fmt(r.seconds)} (${target}${ratio})`;
    })
    .join('\n');
}
