/**
 * A record history entry in words: single edits list what changed, bulk actions,
 * redactions and PII rescans say what they did. Unknown actions fall back to their recorded detail.
 */
type Detail = Record<string, unknown>;
type Fields = { label?: string | null; split?: string; tags?: string[] };

const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
const shown = (value: unknown) => (value === null || value === undefined ? 'none' : Array.isArray(value) ? `[${value.join(', ')}]` : String(value));

function describeEdit(detail: Detail): string {
  const from = (detail.from ?? {}) as Fields;
  const to = (detail.to ?? {}) as Fields;
  const changes = (['label', 'split', 'tags'] as const).filter((k) => shown(from[k]) !== shown(to[k])).map((k) => `${k} ${shown(from[k])} → ${shown(to[k])}`);
  return changes.length ? `Edited: ${changes.join('; ')}` : 'Edited (no change)';
}

export function describeHistory(entry: { action: string; detail: Detail }): string {
  const { action, detail } = entry;
  switch (action) {
    case 'edit':
      return describeEdit(detail);
    case 'redact': {
      const kinds = [...new Set((detail.kinds as string[] | undefined) ?? [])];
      const spans = Number(detail.spans ?? kinds.length);
      const same = typeof detail.sameTextAs === 'number' ? `; now the same text as record ${detail.sameTextAs}` : '';
      return `Redacted ${plural(spans, 'span')} (${kinds.join(', ')})${same}`;
    }
    case 'pii-rescan': {
      const kinds = (key: string) => (detail[key] as string[] | undefined)?.join(', ') || 'none';
      return `PII rescanned: ${kinds('before')} → ${kinds('after')} (${plural(Number(detail.spans ?? 0), 'finding')})`;
    }
    case 'move':
      return `Moved to ${shown(detail.split)}`;
    case 'label':
      return `Label set to ${shown(detail.label)}`;
    case 'tag':
      return `Tagged ${shown(detail.tag)}`;
    case 'untag':
      return `Tag ${shown(detail.tag)} removed`;
    default:
      return Object.keys(detail).length ? `${action}: ${JSON.stringify(detail)}` : action;
  }
}
