/**
 * Verification of an exported `veil.dp-answers/v1` document: the format, the content and
 * release hashes, the stated ε recomputed from the stated event, and the ledger checks shared
 * with DP prompts (verifyDpPrompt.ts): the commit records this document's release hash, the
 * reservation's event and parameters match the certificate, the chain recomputes.
 *
 * Sizes: a noisy size of the private split is charged on its own before the batch, so the
 * certificate's event is sequence([size release, batch]); the batch reservation must hold the
 * second part, and the commit named by `sizeLedger` the first, with the hash of the stated size
 * (core/icl/noisyPoolSizes.ts, sizeReleaseHash; the check is shared with DP prompts: sizeLedgerCheck.ts).
 */
import { answersContentHash, dpAnswersSchema, type AnswersCertificate } from './dpAnswersFormat';
import { sgaCandidatesCheck } from './sgaAnswersCheck';
import { releaseHash } from './dpPromptFormat';
import { chargedPart, sizeLedgerCheck } from './sizeLedgerCheck';
import { epsilonCheck, ledgerChecks, poolSizesCheck, type CheckResult, type VerifyDeps } from './verifyDpPrompt';

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
    ...(c.poolSizes ? [poolSizesCheck(c), await sizeLedgerCheck(c, [c.parameters.units], deps.ledger)] : []),
    ...(c.mechanism === 'sga' ? [sgaCandidatesCheck(doc)] : []),
    ...(await ledgerChecks(c, json, { expected: release, legacy: false }, deps.ledger, chargedPart(c))),
  ];
  return { valid: checks.every((x) => x.ok), checks, certificate: c };
}
