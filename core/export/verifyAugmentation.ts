/**
 * Verification of an exported `veil.augmentation/v1` document (docs/sga.md, "Augmenting a thin
 * public set"): the format, the content hash of the generated examples it carries, its release
 * hash, the stated ε recomputed from the stated DPM event, and the ledger checks shared with the
 * other exports (verifyDpPrompt.ts): the commit records this document's release hash, the
 * reservation's event and parameters (mechanism 'dpm', ρ, depth, ε, δ, examples requested)
 * match the certificate, the chain recomputes.
 *
 * Binding: the release hash covers every field but the commit-bound ones (augmentationFormat.ts),
 * so an edit of the examples, event, ε, model, seeds, counts or issue time breaks the ledger output
 * hash. The counts are derivable: the job adds exactly the certified examples or none, so a bound
 * document states added = examples and duplicates = 0. A document issued before the counts were
 * bound verifies by its uncounted release hash; its counts are only checked to add up
 * (added + duplicates = examples: the vault skipped the examples the dataset already held).
 */
import {
  augmentationContentHash, augmentationCertificateSchema, augmentationDocumentSchema, augmentationReleaseHash, uncountedReleaseHash,
  type AugmentationCertificate, type AugmentationDocument,
} from './augmentationFormat';
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
  const counted = await augmentationReleaseHash(json as object);
  const countsBound = counted === doc.releaseHash;
  const uncounted = countsBound ? null : await uncountedReleaseHash(json as object);
  const release = uncounted !== null && uncounted === doc.releaseHash ? uncounted : counted;
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
    {
      name: 'release hash',
      ok: bound,
      detail: bound
        ? countsBound ? 'matches' : 'matches (an older document: generated.added and duplicates are not covered)'
        : doc.releaseHash === undefined ? 'absent: this document does not state one' : 'a field of the document was changed after export',
    },
    countsCheck(doc, countsBound),
    epsilonCheck(view, deps),
    ...(await ledgerChecks(view, json, { expected: release, legacy: false }, deps.ledger)),
  ];
  return { valid: checks.every((x) => x.ok), checks, certificate };
}

/** The counts of examples added and skipped, against the examples the document carries (strict where the release hash binds them). */
function countsCheck(doc: AugmentationDocument, bound: boolean): CheckResult {
  const { added, duplicates } = doc.generated;
  const n = doc.examples.length;
  if (bound) {
    const ok = added === n && duplicates === 0;
    return { name: 'generated counts', ok, detail: ok ? `all ${n} generated examples were added to the public split, none skipped` : `added ${added} and skipped ${duplicates}, but the job adds all ${n} examples it certifies or none` };
  }
  const ok = added + duplicates === n;
  return { name: 'generated counts', ok, detail: `${added} added + ${duplicates} skipped as already held ${ok ? '=' : '≠'} ${n} examples (counts not bound by this older document's release hash)` };
}
