/**
 * Verification of an exported `veil.dp-prompt/v1` document. Self-contained checks (the
 * format, the content hash, the rendered prompt, the stated ε recomputed from the stated
 * event) run anywhere; the ledger checks need the issuing data directory's ledger and
 * come in through `LedgerView` (absent: reported as not checked, and the document is not
 * declared valid).
 */
import type { Bounds } from '../accounting/accountant';
import type { PrivacyEvent } from '../accounting/events';
import { renderFewShotPrompt, type PromptTemplate } from '../icl/prompts';
import { canonicalJson } from './canonicalJson';
import { contentHash, dpPromptSchema, type PrivacyCertificate } from './dpPromptFormat';

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
  /** Whether the dataset's whole chain recomputes. */
  chainIntact: boolean;
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

async function ledgerChecks(c: PrivacyCertificate, hash: string, ledger: LedgerView | undefined): Promise<CheckResult[]> {
  if (!ledger) return [{ name: 'ledger entry', ok: false, detail: 'not checked: no ledger available here' }];
  const commit = await ledger.commit(c.ledger.entryId);
  if (!commit) return [{ name: 'ledger entry', ok: false, detail: `this data directory's ledger has no commit entry ${c.ledger.entryId}` }];
  return [
    { name: 'ledger entry', ok: commit.entryHash === c.ledger.entryHash, detail: `entry ${c.ledger.entryId} hash ${commit.entryHash.slice(0, 16)}… vs certificate ${c.ledger.entryHash.slice(0, 16)}…` },
    { name: 'ledger output hash', ok: commit.outputHash === hash, detail: 'the ledger recorded the hash of exactly this content at commit' },
    { name: 'ledger event', ok: commit.eventJson === canonicalJson(c.event), detail: 'the event charged in the ledger equals the certificate event' },
    { name: 'ledger chain', ok: commit.chainIntact, detail: commit.chainIntact ? 'the dataset chain recomputes' : 'the dataset chain is broken: run `veil ledger verify`' },
  ];
}

export async function verifyDpPrompt(text: string, deps: VerifyDeps): Promise<{ valid: boolean; checks: CheckResult[]; certificate: PrivacyCertificate | null }> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { valid: false, checks: [{ name: 'format', ok: false, detail: `not JSON: ${(error as Error).message}` }], certificate: null };
  }
  const parsed = dpPromptSchema.safeParse(json);
  if (!parsed.success) {
    return { valid: false, checks: [{ name: 'format', ok: false, detail: `not a veil.dp-prompt/v1 document: ${parsed.error.issues[0]?.message}` }], certificate: null };
  }
  const doc = parsed.data;
  const c = doc.certificate;
  const hash = await contentHash(doc);
  const template = c.parameters.template as PromptTemplate | undefined;
  const recomputed = deps.epsilonOf(c.event, c.delta).upper;
  const checks: CheckResult[] = [
    { name: 'format', ok: true, detail: doc.format },
    { name: 'content hash', ok: hash === c.contentHash, detail: hash === c.contentHash ? 'matches' : 'the prompt or demonstrations were changed after export' },
    {
      name: 'rendered prompt',
      ok: template !== undefined && renderFewShotPrompt({ ...template, instruction: doc.instruction }, doc.demonstrations) === doc.prompt,
      detail: 'the prompt is exactly the instruction and demonstrations, rendered',
    },
    {
      name: 'epsilon',
      ok: Math.abs(recomputed - c.epsilon.upper) <= EPSILON_TOLERANCE * Math.max(1, recomputed),
      detail: `the certificate event accounts to ε ≤ ${recomputed.toPrecision(6)} at δ = ${c.delta}; stated ${c.epsilon.upper.toPrecision(6)}`,
    },
    ...(await ledgerChecks(c, hash, deps.ledger)),
  ];
  return { valid: checks.every((x) => x.ok), checks, certificate: c };
}
