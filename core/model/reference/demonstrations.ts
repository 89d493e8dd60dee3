/**
 * Finds the demonstrations in a few-shot prompt, so the reference learner can learn from
 * them in context. The prompt's last line names the cue ("Label:"; up to its first colon,
 * or the whole line); every earlier line that starts with the cue and continues it is a
 * demonstration's answer ("Label: spam"), and the text since the previous answer is its
 * input. The text after the last answer is the query. When the query starts with a field
 * name ("Email:"), every input starts at its last occurrence of that field, which drops
 * instructions before the first demonstration.
 */

export interface Demonstration {
  /** The input text of the demonstration. */
  text: string;
  /** The answer after the cue, trimmed ("spam"). */
  label: string;
  /** The whole answer line as written ("Label: spam"), right-trimmed. */
  line: string;
}

export interface DemonstrationContext {
  cue: string;
  demonstrations: Demonstration[];
  query: string;
}

const FIELD = /^\s*([^\n:]{1,40}:)/;

function fromField(segment: string, field: string | undefined): string {
  if (!field) return segment;
  if (segment.startsWith(field)) return segment;
  const at = segment.lastIndexOf(`\n${field}`);
  return at < 0 ? segment : segment.slice(at + 1);
}

export function parseDemonstrations(prompt: string): DemonstrationContext | null {
  const lastBreak = prompt.lastIndexOf('\n');
  const lastLine = prompt.slice(lastBreak + 1);
  const colon = lastLine.indexOf(':');
  const cue = colon >= 0 ? lastLine.slice(0, colon + 1) : lastLine.trimEnd();
  if (cue.trim() === '' || lastBreak < 0) return null;

  const raw: { text: string; label: string; line: string }[] = [];
  let segmentStart = 0;
  let lineStart = 0;
  while (lineStart <= lastBreak) {
    const lineEnd = prompt.indexOf('\n', lineStart);
    const line = prompt.slice(lineStart, lineEnd);
    if (line.startsWith(cue)) {
      const label = line.slice(cue.length).trim();
      if (label !== '') {
        raw.push({ text: prompt.slice(segmentStart, lineStart), label, line: line.trimEnd() });
        segmentStart = lineEnd + 1;
      }
    }
    lineStart = lineEnd + 1;
  }
  if (raw.length === 0) return null;
  const query = prompt.slice(segmentStart, lastBreak + 1);
  const field = FIELD.exec(query)?.[1].trimStart();
  return {
    cue,
    demonstrations: raw.map((d) => ({ ...d, text: fromField(d.text, field) })),
    query: fromField(query, field),
  };
}
