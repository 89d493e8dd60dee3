/**
 * Person names from a first-name list. A listed first name counts only in a name-like
 * position — followed by a capitalised surname, or after a title (Mr, Mrs, Ms, Dr, Prof)
 * or a greeting (Dear, Hi, Hello) — and never when it is a common English word used as one
 * (May, Will, Mark, Bill, …), which keeps precision on ordinary prose.
 */
import { execAll } from './detectors';
import type { PiiFinding } from './types';

const COMMON_WORDS = new Set([
  'May', 'June', 'April', 'August', 'Will', 'Mark', 'Bill', 'Rose', 'Grant', 'Hope', 'Joy', 'Faith', 'Grace', 'Art', 'Dawn', 'Iris',
  'Lily', 'Page', 'Rich', 'Sunny', 'Guy', 'Ray', 'Don', 'Van', 'Chase', 'Frank', 'Glen', 'Jack', 'Pat', 'Sue', 'Gay', 'Sky', 'Holly',
  'Ivy', 'Amber', 'Crystal', 'Ginger', 'Honey', 'Summer', 'Autumn', 'Winter', 'Major', 'Noble', 'Royal', 'Angel', 'Star', 'Bud',
  'Buck', 'Carol', 'Christian', 'Clay', 'Cliff', 'Dale', 'Dell', 'Drew', 'Forest', 'Gale', 'Hunter', 'Lane', 'Lee', 'Miles', 'Ward',
  'West', 'Wes', 'Win', 'Price', 'Stone', 'Read', 'Case', 'Cash', 'Dot', 'Kit', 'Tiny', 'Happy', 'Merry', 'Love', 'Joe', 'The',
]);
const TITLES = /(?:\b(?:Mr|Mrs|Ms|Miss|Dr|Prof)\.?|\b(?:Dear|Hi|Hello|Hey|Thanks|Regards|Sincerely),?)\s+$/;
const WORD = /\b[A-Z][a-z]{2,}\b/g;

export function nameDetector(firstNames: ReadonlySet<string>) {
  return (text: string): PiiFinding[] => {
    const found: PiiFinding[] = [];
    for (const m of execAll(WORD, text)) {
      const name = m[0];
      if (!firstNames.has(name) || COMMON_WORDS.has(name)) continue;
      const after = /^\s+([A-Z][a-z]+(?:-[A-Z][a-z]+)?)\b/.exec(text.slice(m.index + name.length));
      const titled = TITLES.test(text.slice(Math.max(0, m.index - 12), m.index));
      if (!after && !titled) continue;
      const end = m.index + name.length + (after ? after[0].length : 0);
      found.push({ kind: 'person-name', start: m.index, end });
    }
    return found;
  };
}
