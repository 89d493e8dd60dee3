/**
 * PII scan and redaction. `scanPii` runs every detector and keeps non-overlapping spans
 * (on overlap the longer span wins, then the more specific kind, then the earlier one). `redact` replaces spans with
 * typed placeholders such as [EMAIL], right to left so offsets stay valid.
 */
import { detectors } from './detectors';
import { nameDetector } from './names';
import { redactionPlaceholder, type PiiFinding, type PiiKind } from './types';

/** Most specific first: a checksummed or shaped identifier beats a generic phone-like digit run. */
const SPECIFICITY: PiiKind[] = ['email', 'iban', 'credit-card', 'national-id', 'ip-address', 'date-of-birth', 'person-name', 'phone'];
const rank = (f: PiiFinding) => SPECIFICITY.indexOf(f.kind);

export interface ScanOptions {
  /** First names for the person-name detector (empty: names are not detected). */
  firstNames?: ReadonlySet<string>;
}

export function scanPii(text: string, options: ScanOptions = {}): PiiFinding[] {
  const candidates = Object.values(detectors).flatMap((detect) => detect(text));
  if (options.firstNames) candidates.push(...nameDetector(options.firstNames)(text));
  if (candidates.length < 2) return candidates; // most records: nothing to resolve
  candidates.sort((a, b) => b.end - b.start - (a.end - a.start) || rank(a) - rank(b) || a.start - b.start);
  // Marks taken characters instead of checking every kept span (quadratic with tens of thousands
  // of findings). One detector's spans do not overlap (names: two at most), so this reads each
  // character about ten times at most.
  const taken = new Uint8Array(text.length);
  const kept: PiiFinding[] = [];
  for (const c of candidates) {
    if (taken.subarray(c.start, c.end).includes(1)) continue;
    taken.fill(1, c.start, c.end);
    kept.push(c);
  }
  return kept.sort((a, b) => a.start - b.start);
}

export function redact(text: string, findings: readonly PiiFinding[], kinds?: readonly PiiKind[]): { text: string; redacted: PiiFinding[] } {
  const redacted = findings.filter((f) => !kinds || kinds.includes(f.kind));
  let out = text;
  for (const f of [...redacted].sort((a, b) => b.start - a.start)) out = out.slice(0, f.start) + redactionPlaceholder(f.kind) + out.slice(f.end);
  return { text: out, redacted };
}
