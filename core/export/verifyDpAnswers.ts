/**
 * Verification of an exported `veil.dp-answers/v1` document: the format, the content and
 * release hashes, the stated ε recomputed from the stated event, and the ledger checks shared
 * with DP prompts (verifyDpPrompt.ts): the commit records this document's release hash, the
 * reservation's event and parameters match the certificate, the chain recomputes.
 *
 * Sizes: a noisy size of the private split is charged on its own before the batch, so the
 * certificate's event is sequence([size release, batch]); the batch reservation must hold the
 * second part, and the commit named by `sizeLedger` the first, with the hash of the stated size
 * (core/icl/noisyPoolSizes.ts, sizeReleaseHash).
 */
import { answersContentHash, dpAnswersSchema, type AnswersCertificate } from './dpAnswersFormat';
import { sgaCandidatesCheck } from './sgaAnswersCheck';
import { releaseHash } from './dpPromptFormat';
import type { PrivacyEvent } from '../accounting/events';
import { sizeReleaseHash } from '../icl/noisyPoolSizes';
import { canonicalJson } from './canonicalJson';
import { epsilonCheck, ledgerChecks, poolSizesCheck, type CheckResult, type LedgerView, type VerifyDeps } from './verifyDpPrompt';

export async function verifyDpAnswers(text: string, deps: VerifyDeps): Promise<{ valid: boolean; checks: CheckResult[]; certificate: AnswersCertificate | null }> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { valid: false, checks: [{ name: 'format', ok: false, detail: 'not JSON: only the JSON export (veil.dp-answers/v1) carries a verifiable certificate' }], certificate: null };
  }
  const parsed = dpAnswersSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const at = issue?.path.map((k) => (typeof k === 'number' ? `[${k}]` : `.${String(k)}`)).join('').slice(1);
    return { valid: false, checks: [{ name: 'format', ok: false, detail: `not a veil.dp-answers/v1 document: ${at ? `${at}: ` : ''}${issue?.message}` }], certificate: null };
  }
  const doc = parsed.data;
  const c = doc.certificate;
  const content = await answersContentHash(doc);
  const release = await releaseHash(json as { certificate: object });
  const bound = c.releaseHash !== undefined && release === c.releaseHash;
  const checks: CheckResult[] = [
    { name: 'format', ok: true, detail: doc.format },
    { name: 'content hash', ok: content === c.contentHash, detail: content === c.contentHash ? 'matches' : 'the queries or answers were changed after export' },
    { name: 'release hash', ok: bound, detail: bound ? 'matches' : 'a field of the document was changed after export' },
    epsilonCheck(c, deps),
    ...(c.poolSizes ? [poolSizesCheck(c), await sizeLedgerCheck(c, deps.ledger)] : []),
    ...(c.mechanism === 'sga' ? [sgaCandidatesCheck(doc)] : []),
    ...(await ledgerChecks(c, json, { expected: release, legacy: false }, deps.ledger, batchPart(c))),
  ];
  return { valid: checks.every((x) => x.ok), checks, certificate: c };
}

/** The batch reservation's part of the certificate's event: after a separately charged size release, the rest. */
function batchPart(c: AnswersCertificate): PrivacyEvent {
  return c.sizeLedger && c.event.kind === 'sequence' && c.event.events.length === 2 ? c.event.events[1] : c.event;
}

/** The size release's own commit: its event is the first part of the certificate's, its output the stated size. */
async function sizeLedgerCheck(c: AnswersCertificate, ledger: LedgerView | undefined): Promise<CheckResult> {
  const name = 'size ledger entry';
  if (c.poolSizes?.kind !== 'noisy') return { name, ok: c.sizeLedger === undefined, detail: c.sizeLedger === undefined ? 'none: the size is declared public' : 'a size entry is named, but the size is declared public' };
  if (!c.sizeLedger || c.event.kind !== 'sequence') return { name, ok: false, detail: 'the size is noisy, but no separately charged size release is named' };
  if (!ledger) return { name, ok: false, detail: 'not checked: no ledger available here' };
  const commit = await ledger.commit(c.sizeLedger.entryId);
  if (!commit) return { name, ok: false, detail: `this data directory's ledger has no commit entry ${c.sizeLedger.entryId}` };
  const units = c.parameters.units;
  const ok =
    commit.entryHash === c.sizeLedger.entryHash &&
    commit.eventJson === canonicalJson(c.event.events[0]) &&
    typeof units === 'number' &&
    commit.outputHash === (await sizeReleaseHash([units]));
  return { name, ok, detail: ok ? `entry ${c.sizeLedger.entryId} charged the size release and recorded exactly the stated size` : `entry ${c.sizeLedger.entryId} does not hold this size release (its hash, event or recorded size differs)` };
}
