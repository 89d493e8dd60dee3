/**
 * Cut a record's text into plain and PII segments for highlighting. Findings are UTF-16
 * offsets (end exclusive, as core/pii stores them); overlapping findings merge into one
 * segment that keeps every kind, and out-of-range offsets are clamped.
 */
import type { PiiFinding, PiiKind } from '../../../../core/pii/types';

export interface TextSegment {
  text: string;
  start: number;
  /** Empty for plain text. */
  kinds: PiiKind[];
}

export function piiSegments(text: string, findings: readonly PiiFinding[]): TextSegment[] {
  const spans = findings
    .map((f) => ({ start: Math.min(Math.max(f.start, 0), text.length), end: Math.min(f.end, text.length), kinds: [f.kind] }))
    .filter((s) => s.end > s.start)
    .sort((a, b) => a.start - b.start);
  const merged: typeof spans = [];
  for (const span of spans) {
    const last = merged.at(-1);
    if (last && span.start < last.end) {
      last.end = Math.max(last.end, span.end);
      if (!last.kinds.includes(span.kinds[0])) last.kinds.push(span.kinds[0]);
    } else merged.push({ ...span, kinds: [...span.kinds] });
  }
  const segments: TextSegment[] = [];
  let at = 0;
  for (const span of merged) {
    if (span.start > at) segments.push({ text: text.slice(at, span.start), start: at, kinds: [] });
    segments.push({ text: text.slice(span.start, span.end), start: span.start, kinds: span.kinds });
    at = span.end;
  }
  if (at < text.length || segments.length === 0) segments.push({ text: text.slice(at), start: at, kinds: [] });
  return segments;
}

/** Findings grouped by kind, in the order of their first appearance: the drawer's redaction list. */
export function findingsByKind(findings: readonly PiiFinding[]): { kind: PiiKind; count: number }[] {
  const counts = new Map<PiiKind, number>();
  for (const f of [...findings].sort((a, b) => a.start - b.start)) counts.set(f.kind, (counts.get(f.kind) ?? 0) + 1);
  return [...counts].map(([kind, count]) => ({ kind, count }));
}
