/**
 * Pattern detectors for PII in free text. Each returns candidate spans; checksums (Luhn,
 * IBAN mod 97, SSN ranges) and context words cut false positives. Names are found by
 * `nameDetector` from a first-name list (see scan.ts).
 */
import { ibanValid, luhnValid, ssnValid } from './checksums';
import type { PiiFinding, PiiKind } from './types';

export type Detector = (text: string) => PiiFinding[];

/**
 * Every match of a global pattern, in order, as `matchAll` finds them (no pattern here matches
 * the empty string). `exec` on the module's own pattern: `matchAll` would clone it per call,
 * and the import scans every record with every detector.
 */
export function* execAll(pattern: RegExp, text: string): Generator<RegExpExecArray> {
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) yield m;
}

function matches(text: string, pattern: RegExp, kind: PiiKind, accept: (m: RegExpExecArray) => boolean = () => true, group = 0): PiiFinding[] {
  const found: PiiFinding[] = [];
  for (const m of execAll(pattern, text)) {
    if (!accept(m)) continue;
    const start = m.index + (group === 0 ? 0 : m[0].indexOf(m[group]));
    found.push({ kind, start, end: start + m[group].length });
  }
  return found;
}

/*
 * Every pattern must stay linear: scanPii runs synchronously on the service's event loop over
 * records of up to 100,000 characters, and one backtracking blow-up freezes the app (checked by
 * test/unit/core/pii/scanComplexity.test.ts). Phone, card, IBAN, SSN and IPv4 repeat only
 * bounded groups, so each start costs a constant; the unbounded runs left (domain labels, a
 * month's letters) are each read from one start (an "@", a birth keyword).
 */

/**
 * E-mail, matched from its "@"; the lookbehind after the "@" captures the local part (m[1]). A
 * pattern that starts with the local part (or with that lookbehind) re-reads a long run with no
 * "@" from every position in it, which is quadratic; this reads each run once.
 */
const EMAIL = /@(?<=([A-Za-z0-9._%+-]+)@)[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
/** +CC or (area) or grouped digits; 9–15 digits in all (E.164 allows at most 15). */
const PHONE = /(?<![\w+])(?:\+\d{1,3}[\s.-]?)?(?:\(\d{2,4}\)[\s.-]?)?\d{2,4}(?:[\s.-]\d{2,4}){1,4}(?![\w])/g;
const CARD = /(?<!\d)(?:\d[ -]?){12,18}\d(?!\d)/g;
const IBAN = /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?\b/g;
const SSN = /\b(\d{3})-(\d{2})-(\d{4})\b/g;
const IPV4 = /\b(?:\d{1,3}\.){3}\d{1,3}\b/g;
const DATE = String.raw`(?:\d{1,2}[./-]\d{1,2}[./-](?:19|20)\d{2}|(?:19|20)\d{2}-\d{2}-\d{2}|\d{1,2} (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]* (?:19|20)\d{2}|(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]* \d{1,2},? (?:19|20)\d{2})`;
const BIRTH = new RegExp(String.raw`\b(?:born(?: on)?|DOB|D\.O\.B\.|date of birth|birth ?date|birthday)\b[:\s]{0,3}(?:is |was |on )?(${DATE})`, 'gi');

const digitsOf = (s: string) => s.replace(/\D/g, '');

/*
 * Gates: cheap necessary conditions for a pattern to match, looked for with indexOf (native;
 * a pattern is tried at every position of the text, which on prose costs more than the rest of
 * the scan). A detector whose gate fails is skipped: it could not have found anything.
 */
const isDigit = (c: number) => c >= 48 && c <= 57;

/** Whether `separator` stands between two digits somewhere in `text` (IPv4 needs "1.2", an SSN "1-2"). */
function digitsAround(text: string, separator: string): boolean {
  for (let at = text.indexOf(separator, 1); at !== -1; at = text.indexOf(separator, at + 1)) {
    if (isDigit(text.charCodeAt(at - 1)) && isDigit(text.charCodeAt(at + 1))) return true;
  }
  return false;
}

/** Whether `text` holds a year 1900–2099 as four digits (every date form of a birth date does). */
function hasYear(text: string): boolean {
  for (const century of ['19', '20']) {
    for (let at = text.indexOf(century); at !== -1; at = text.indexOf(century, at + 1)) {
      if (isDigit(text.charCodeAt(at + 2)) && isDigit(text.charCodeAt(at + 3))) return true;
    }
  }
  return false;
}

/** Each gated pattern with its gate (exported for the test that every gate is necessary). */
export const gatedPatterns = {
  email: { pattern: EMAIL, gate: (text: string) => text.includes('@') },
  ipv4: { pattern: IPV4, gate: (text: string) => digitsAround(text, '.') },
  ssn: { pattern: SSN, gate: (text: string) => digitsAround(text, '-') },
  birth: { pattern: BIRTH, gate: hasYear },
};
const passes = (gated: keyof typeof gatedPatterns, text: string) => gatedPatterns[gated].gate(text);

const isHexOrColon = (c: number) => (c >= 48 && c <= 58) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
/** [\w:.]: a character that may not border an IPv6 address (NaN, outside the text, never does). */
const isWordColonDot = (c: number) => (c >= 48 && c <= 58) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 46;

/**
 * IPv6 candidates: whole runs of hex digits and colons of 2–39 characters (eight groups of four
 * and seven colons is the longest valid form) not bordered by a word character, ':' or '.',
 * checked by `ipv6Valid` — the matches of /(?<![\w:.])[0-9A-Fa-f:]{2,39}(?![\w:.])/g. Only a
 * run with a colon can be valid, so the runs are found from the colons (prose has few; every
 * hex letter of every word started the pattern). Each character is read at most twice.
 */
function ipv6s(text: string): PiiFinding[] {
  const found: PiiFinding[] = [];
  for (let colon = text.indexOf(':'); colon !== -1; ) {
    let start = colon;
    while (isHexOrColon(text.charCodeAt(start - 1))) start--;
    let end = colon + 1;
    while (isHexOrColon(text.charCodeAt(end))) end++;
    const bordered = isWordColonDot(text.charCodeAt(start - 1)) || isWordColonDot(text.charCodeAt(end));
    if (end - start >= 2 && end - start <= 39 && !bordered && ipv6Valid(text.slice(start, end))) found.push({ kind: 'ip-address', start, end });
    colon = text.indexOf(':', end);
  }
  return found;
}

/** RFC 4291 text form: eight groups of 1–4 hex digits, or fewer with one "::". */
function ipv6Valid(candidate: string): boolean {
  const halves = candidate.split('::');
  if (halves.length > 2) return false;
  const groups = halves.flatMap((h) => (h === '' ? [] : h.split(':')));
  if (!groups.every((g) => /^[0-9A-Fa-f]{1,4}$/.test(g))) return false;
  return halves.length === 2 ? groups.length < 8 : groups.length === 8;
}

/**
 * E-mail addresses, as a scan for local part, "@" and domain from the left would find them:
 * a local part starts no earlier than the end of the previous address.
 */
function emails(text: string): PiiFinding[] {
  const found: PiiFinding[] = [];
  if (!passes('email', text)) return found;
  let from = 0;
  for (const m of execAll(EMAIL, text)) {
    const start = Math.max(m.index - m[1].length, from);
    if (start === m.index) continue; // the whole run before this "@" belongs to the previous address
    from = m.index + m[0].length;
    found.push({ kind: 'email', start, end: from });
  }
  return found;
}

/** Phone: 9–11 digits written with separators, or 9–15 after a + (E.164); not an SSN or IP shape. */
function phoneLike(match: string): boolean {
  const n = digitsOf(match).length;
  const international = match.startsWith('+');
  if (n < 9 || n > (international ? 15 : 11)) return false;
  if (!international && !/[\s.()-]/.test(match)) return false;
  return !/^\d{3}-\d{2}-\d{4}$/.test(match) && !/^\d{1,3}(?:\.\d{1,3}){3}$/.test(match) && !/^\d{4}-\d{2}-\d{2}$/.test(match);
}

export const detectors: Record<Exclude<PiiKind, 'person-name'>, Detector> = {
  email: emails,
  phone: (t) => matches(t, PHONE, 'phone', (m) => phoneLike(m[0])),
  'credit-card': (t) => matches(t, CARD, 'credit-card', (m) => luhnValid(digitsOf(m[0])) && /^[3-6]/.test(digitsOf(m[0]))),
  iban: (t) => matches(t, IBAN, 'iban', (m) => ibanValid(m[0])),
  'national-id': (t) => (passes('ssn', t) ? matches(t, SSN, 'national-id', (m) => ssnValid(m[1], m[2], m[3])) : []),
  'ip-address': (t) => [
    ...(passes('ipv4', t) ? matches(t, IPV4, 'ip-address', (m) => m[0].split('.').every((o) => Number(o) <= 255 && !(o.length > 1 && o.startsWith('0')))) : []),
    ...ipv6s(t),
  ],
  'date-of-birth': (t) => (passes('birth', t) ? matches(t, BIRTH, 'date-of-birth', () => true, 1) : []),
};
