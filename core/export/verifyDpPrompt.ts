/**
 * Verification of an exported `veil.dp-prompt/v1` document. Self-contained checks (the
 * format, the content and release hashes, the rendered prompt, the stated ε recomputed
 * from the stated event) run anywhere; the ledger checks need the issuing data directory's
 * ledger and come in through `LedgerView` (absent: reported as not checked, and the
 * document is not declared valid).
 *
 * Binding: the commit named by the certificate records the document's release hash (every
 * field but the commit-bound ones), so an edit of any certificate field — model, parameters,
 * pools, dataset fingerprint, privacy unit, app version, issue time — breaks it. The
 * reservation's event, parameters and δ are compared with the certificate as well. Legacy
 * v1 documents (no `releaseHash`) were committed with their content hash: their content is
 * bound, and their certificate only through the reservation checks.
 *
 * Noisy pool sizes: charged as their own ledger entry before the job (`sizeLedger`), so the
 * job's reservation holds the second part of sequence([size release, job]) and the size commit
 * the first, with the hash of the stated `parameters.pools[].units` (sizeLedgerCheck.ts).
 * Certificates issued while the size release was folded into the job's reservation name no
 * `sizeLedger`: their reservation must hold the whole event, and they still verify.
 */
import { coversRecomputed } from '../accounting/recordedBound';
import type { Bounds } from '../accounting/accountant';
import type { PrivacyEvent } from '../accounting/events';
import { renderFewShotPrompt, type PromptTemplate } from '../icl/prompts';
import { canonicalJson, changedPaths } from './canonicalJson';
import { contentHash, dpPromptSchema, releaseHash, type DpPromptExport, type PrivacyCertificate } from './dpPromptFormat';
import { chargedPart, sizeLedgerCheck } from './sizeLedgerCheck';

export interface CheckResult {
  name: string;
  ok: boolean;
  detail: string;
}

export interface CommitRecord {
  entryHash: string;
  outputHash: string | null;
  /** The reservation's event, as stored (canonical JSON). */
  eventJson: string;
  /** The reservation's parameters, as stored. */
  parameters: Record<string, unknown>;
  /** Whether the dataset's whole chain recomputes. */
  chainIntact: boolean;
  /** The document as issued with this commit, where this data directory keeps it: names edited fields. */
  issued?: unknown;
}

export interface LedgerView {
  commit(entryId: number): Promise<CommitRecord | null>;
}

export interface VerifyDeps {
  epsilonOf: (event: PrivacyEvent, delta: number) => Bounds;
  ledger?: LedgerView;
}

/** Relative tolerance for re-accounting the stated event (same accountant, same grid). */
const EPSILON_TOLERANCE = 1e-6;
/** Most edited paths named in one check. */
const NAMED_PATHS = 8;

/** A certificate of any Veil export (DP prompt, DP answers, augmentation): what the ledger checks read. */
export type IssuedCertificate = Pick<PrivacyCertificate, 'event' | 'epsilon' | 'delta' | 'privacyUnit' | 'parameters' | 'poolSizes' | 'ledger'> & { mechanism: string };

/** The document's hash the commit must hold: the release hash, or the content hash for a legacy document. */
export interface Binding {
  expected: string;
  legacy: boolean;
}

/** Reservation parameters that disagree with the certificate ('epsilon' is the requested total: an upper limit). */
function parameterMismatches(c: IssuedCertificate, reserved: Record<string, unknown>): string[] {
  const sizes = c.poolSizes?.kind === 'noisy' ? { poolSizes: 'noisy', poolSizeEpsilon: c.poolSizes.epsilon } : { poolSizes: c.poolSizes?.kind };
  const stated: Record<string, unknown> = { ...c.parameters, method: c.mechanism, delta: c.delta, privacyUnit: c.privacyUnit, ...sizes };
  return Object.entries(reserved).flatMap(([key, value]) => {
    if (key === 'epsilon') return typeof value === 'number' && c.epsilon.upper <= value * (1 + EPSILON_TOLERANCE) ? [] : [`ε ≤ ${c.epsilon.upper} exceeds the ${String(value)} reserved`];
    return canonicalJson(stated[key]) === canonicalJson(value) ? [] : [`${key}: reserved ${canonicalJson(value)}, certificate ${canonicalJson(stated[key]) ?? 'absent'}`];
  });
}

/**
 * What the certificate says about its pool sizes: noisy counts whose release is the first event
 * of the charged event; sizes the analyst declared public; or, for a certificate issued before
 * sizes were noised, exact sizes outside the guarantee (still verifiable, and said so).
 */
export function poolSizesCheck(c: Pick<PrivacyCertificate, 'poolSizes' | 'event'>): CheckResult {
  const name = 'pool sizes';
  const sizes = c.poolSizes;
  if (!sizes) return { name, ok: true, detail: 'not stated (issued before Veil noised pool sizes): parameters.pools[].units are exact counts, outside the (ε, δ) guarantee' };
  if (sizes.kind === 'declared-public') return { name, ok: true, detail: 'declared public by the analyst: parameters.pools[].units are exact counts, outside the (ε, δ) guarantee' };
  const first = c.event.kind === 'sequence' ? c.event.events[0] : undefined;
  const charged = first?.kind === 'pure' && first.epsilon === sizes.epsilon && Math.abs(sizes.scale * sizes.epsilon - sizes.l1Sensitivity) <= 1e-9 * sizes.l1Sensitivity;
  return {
    name,
    ok: charged,
    detail: charged
      ? `noisy: discrete Laplace counts (scale ${sizes.scale}, ε = ${sizes.epsilon}), charged as the first part of the event; units and q are computed from them`
      : 'the certificate says the sizes are noisy, but its event does not charge their release first',
  };
}

function editedSince(issued: unknown, json: unknown): string {
  if (issued === undefined) return '';
  const paths = changedPaths(issued, json);
  if (paths.length === 0) return '';
  return `; changed since issue: ${paths.slice(0, NAMED_PATHS).join(', ')}${paths.length > NAMED_PATHS ? `, and ${paths.length - NAMED_PATHS} more` : ''}`;
}

const ledgerEventCheck = (ok: boolean): CheckResult => ({
  name: 'ledger event',
  ok,
  detail: ok ? 'the event charged in the ledger equals the certificate event' : 'the ledger charged another event than the certificate states',
});

function renderedCheck(doc: DpPromptExport, template: PromptTemplate | undefined): CheckResult {
  const ok = template !== undefined && renderFewShotPrompt({ ...template, instruction: doc.instruction }, doc.demonstrations) === doc.prompt;
  const detail = ok
    ? 'the prompt is exactly the instruction and demonstrations, rendered'
    : template === undefined
      ? "the certificate has no prompt template to render the demonstrations with"
      : 'the prompt is not the instruction and demonstrations rendered with the certificate\'s template: it holds text they do not';
  return { name: 'rendered prompt', ok, detail };
}

/** `charged`: the event the named reservation charged (default the certificate's; a DP answers document's batch part). */
export async function ledgerChecks(c: IssuedCertificate, json: unknown, binding: Binding, ledger: LedgerView | undefined, charged: PrivacyEvent = c.event): Promise<CheckResult[]> {
  if (!ledger) return [{ name: 'ledger entry', ok: false, detail: 'not checked: no ledger available here' }];
  const commit = await ledger.commit(c.ledger.entryId);
  if (!commit) return [{ name: 'ledger entry', ok: false, detail: `this data directory's ledger has no commit entry ${c.ledger.entryId}` }];
  const bound = commit.outputHash === binding.expected;
  const mismatches = parameterMismatches(c, commit.parameters);
  return [
    { name: 'ledger entry', ok: commit.entryHash === c.ledger.entryHash, detail: `entry ${c.ledger.entryId} hash ${commit.entryHash.slice(0, 16)}… vs certificate ${c.ledger.entryHash.slice(0, 16)}…` },
    {
      name: 'ledger output hash',
      ok: bound,
      detail: bound
        ? `the ledger recorded the hash of exactly this ${binding.legacy ? 'content (legacy document: certificate fields not hashed)' : 'content and certificate'} at commit`
        : `the ledger recorded another document at commit${editedSince(commit.issued, json)}`,
    },
    ledgerEventCheck(commit.eventJson === canonicalJson(charged)),
    {
      name: 'ledger parameters',
      ok: mismatches.length === 0,
      detail: mismatches.length === 0 ? 'the reservation\'s method, δ, ε and job parameters match the certificate' : mismatches.join('; '),
    },
    { name: 'ledger chain', ok: commit.chainIntact, detail: commit.chainIntact ? 'the dataset chain recomputes' : 'the dataset chain is broken: run `veil ledger verify`' },
  ];
}

/** The certificate's ε recomputed from its event and δ: the stated ε must cover it (a tighter accountant since is fine). */
export function epsilonCheck(c: IssuedCertificate, deps: VerifyDeps): CheckResult {
  const recomputed = deps.epsilonOf(c.event, c.delta).upper;
  return {
    name: 'epsilon',
    ok: coversRecomputed(c.epsilon.upper, recomputed, EPSILON_TOLERANCE),
    detail: `the certificate event accounts to ε ≤ ${recomputed.toPrecision(6)} at δ = ${c.delta}; stated ${c.epsilon.upper.toPrecision(6)}`,
  };
}

/** How a certificate without `sizeLedger` charged its noisy pool sizes. */
const FOLDED_SIZE_RELEASE = 'none named: issued while the size release was the first part of the job\'s own reservation (the ledger event check compares the whole event)';

/** The stated pool sizes, in the order released (the pools' order). */
const poolUnits = (c: PrivacyCertificate): unknown[] => (Array.isArray(c.parameters.pools) ? c.parameters.pools.map((p: { units?: unknown }) => p?.units) : []);

export async function verifyDpPrompt(text: string, deps: VerifyDeps): Promise<{ valid: boolean; checks: CheckResult[]; certificate: PrivacyCertificate | null }> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // The parser's message would quote the start of the file: say what it is not, quote nothing.
    const detail = 'not JSON: only the JSON export (veil.dp-prompt/v1) carries a verifiable certificate; Markdown, chat and text exports do not';
    return { valid: false, checks: [{ name: 'format', ok: false, detail }], certificate: null };
  }
  const parsed = dpPromptSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const at = issue?.path.map((k) => (typeof k === 'number' ? `[${k}]` : `.${String(k)}`)).join('').slice(1);
    return { valid: false, checks: [{ name: 'format', ok: false, detail: `not a veil.dp-prompt/v1 document: ${at ? `${at}: ` : ''}${issue?.message}` }], certificate: null };
  }
  const doc = parsed.data;
  const c = doc.certificate;
  const content = await contentHash(doc);
  const release = await releaseHash(json as { certificate: object });
  const binding: Binding = c.releaseHash === undefined ? { expected: content, legacy: true } : { expected: release, legacy: false };
  const template = c.parameters.template as PromptTemplate | undefined;
  const checks: CheckResult[] = [
    { name: 'format', ok: true, detail: doc.format },
    { name: 'content hash', ok: content === c.contentHash, detail: content === c.contentHash ? 'matches' : 'the prompt or demonstrations were changed after export' },
    {
      name: 'release hash',
      ok: binding.legacy || release === c.releaseHash,
      detail: binding.legacy
        ? 'absent (a document issued before release hashes): its certificate is checked against the reservation only'
        : release === c.releaseHash ? 'matches' : 'a field of the document was changed after export',
    },
    renderedCheck(doc, template),
    poolSizesCheck(c),
    ...(c.poolSizes ? [await sizeLedgerCheck(c, poolUnits(c), deps.ledger, FOLDED_SIZE_RELEASE)] : []),
    epsilonCheck(c, deps),
    ...(await ledgerChecks(c, json, binding, deps.ledger, chargedPart(c))),
  ];
  return { valid: checks.every((x) => x.ok), checks, certificate: c };
}
