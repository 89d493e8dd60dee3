/**
 * The search's words marked in a record's text, as the full-text search matches them: each
 * word whole (case-insensitive), or as a prefix where it ends in `*`. Segments only: the
 * table builds React nodes from them (never HTML), so a record's text cannot inject markup.
 */
export interface HighlightSegment {
  text: string;
  hit: boolean;
}

const WORD = /[\p{L}\p{N}_]+\*?/gu;
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A matcher for the search's words, or null when it has none. */
export function searchPattern(search: string): RegExp | null {
  const words = [...new Set((search.match(WORD) ?? []).map((w) => w.toLowerCase()))];
  if (words.length === 0) return null;
  // Longer words first, so "spam*" and "spa" mark the longest run.
  const alternatives = words.sort((a, b) => b.length - a.length).map((w) => (w.endsWith('*') ? `${escape(w.slice(0, -1))}[\\p{L}\\p{N}_]*` : `${escape(w)}(?![\\p{L}\\p{N}_])`));
  return new RegExp(`(?<![\\p{L}\\p{N}_])(?:${alternatives.join('|')})`, 'giu');
}

export function highlightSegments(text: string, pattern: RegExp | null): HighlightSegment[] {
  if (!pattern || text === '') return text === '' ? [] : [{ text, hit: false }];
  const segments: HighlightSegment[] = [];
  let at = 0;
  for (const match of text.matchAll(new RegExp(pattern.source, pattern.flags))) {
    if (match[0] === '') continue;
    if (match.index > at) segments.push({ text: text.slice(at, match.index), hit: false });
    segments.push({ text: match[0], hit: true });
    at = match.index + match[0].length;
  }
  if (at < text.length) segments.push({ text: text.slice(at), hit: false });
  return segments;
}
