/**
 * Verification of an exported `veil.augmentation/v1` document (docs/sga.md, "Augmenting a thin
 * public set"): the format, the content hash of the generated examples it carries, its release
 * hash, the stated ε recomputed from the stated DPM event, and the ledger checks shared with the
 * other exports (verifyDpPrompt.ts): the commit records this document's release hash, the
 * reservation's event and parameters (mechanism 'dpm', ρ, depth, ε, δ, examples requested)
 * match the certificate, the chain recomputes.
 *
 * Binding: the release hash covers every field but the commit-bound ones (augmentationFormat.ts),
 * so an edit of the examples, event, ε, model, seeds or issue time breaks the ledger output hash;
 * `generated.added` / `duplicates` are the vault's counts after the commit and are not bound.
 */
import { augmentationContentHash, augmentationCertificateSchema, augmentationDocumentSchema, augmentationReleaseHash, type AugmentationCertificate } from './augmentationFormat';
import { epsilonCheck, ledgerChecks, type CheckResult, type IssuedCertificate, type VerifyDeps } from './verifyDpPrompt';

const FORMAT_HINT = 'not a veil.augmentation/v1 document (export one with `veil augment show ID --out FILE`)';

export async function verifyAugmentation(text: string, deps: VerifyDeps): Promise<{ valid: boolean; checks: CheckResult[]; certificate: AugmentationCertificate | null }> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { valid: false, checks: [{ name: 'format', ok: false, detail: `not JSON: ${FORMAT_HINT}` }], certificate: null };
  }
  const parsed = augmentationDocumentSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const at = issue?.path.map((k) => (typeof k === 'number' ? `[${k}]` : `.${String(k)}`)).join('').slice(1);
    return { valid: false, checks: [{ name: 'format', ok: false, detail: `${FORMAT_HINT}: ${at ? `${at}: ` : ''}${issue?.message}` }], certificate: null };
  }
  const doc = parsed.data;
  const certificate = augmentationCertificateSchema.parse(doc);
  const content = await augmentationContentHash(doc.examples);
  const release = await augmentationReleaseHash(json as object);
  const bound = doc.releaseHash !== undefined && release === doc.releaseHash;
  const view: IssuedCertificate = {
    event: doc.event, epsilon: doc.epsilon, delta: doc.delta, privacyUnit: doc.privacyUnit, ledger: doc.ledger, mechanism: 'dpm',
    // The reservation's parameters as the certificate states them (augmentationService.ts reserves these).
    parameters: { mechanism: 'dpm', rho: doc.rho, depth: doc.depth, examples: doc.generated.requested },
  };
  const checks: CheckResult[] = [
    { name: 'format', ok: true, detail: doc.format },
    {
      name: 'content hash',
      ok: content === doc.contentHash,
      detail: content === doc.contentHash ? `matches the ${doc.examples.length} generated examples` : 'the generated examples were changed after export',
    },
    { name: 'release hash', ok: bound, detail: bound ? 'matches' : doc.releaseHash === undefined ? 'absent: this document does not state one' : 'a field of the document was changed after export' },
    epsilonCheck(view, deps),
    ...(await ledgerChecks(view, json, { expected: release, legacy: false }, deps.ledger)),
  ];
  return { valid: checks.every((x) => x.ok), checks, certificate };
}
