/**
 * Certificates priced from noisy pool sizes: the size release is charged as its own ledger
 * entry before the job (`sizeLedger`), and `veil certificate verify` checks both entries —
 * the size commit holds the first part of the event and the hash of exactly the stated sizes,
 * the job's reservation the rest. A certificate issued the old way (the size release folded
 * into the job's reservation, no `sizeLedger`; a real document from Veil at fcc9cef) still
 * verifies, and neither form verifies against the other's ledger.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { accountEpsilon } from '../../../../core/accounting';
import { composed, gaussian, poissonSampled, pureDp, sequence, type PrivacyEvent } from '../../../../core/accounting/events';
import { canonicalJson } from '../../../../core/export/canonicalJson';
import { contentHash, DP_PROMPT_FORMAT, releaseHash, type DpPromptExport } from '../../../../core/export/dpPromptFormat';
import { verifyDpPrompt, type CommitRecord } from '../../../../core/export/verifyDpPrompt';
import { sizeReleaseHash } from '../../../../core/icl/noisyPoolSizes';
import { defaultTemplate, renderFewShotPrompt } from '../../../../core/icl/prompts';

const epsilonOf = (event: PrivacyEvent, delta: number) => accountEpsilon(event, delta).bounds;
const failing = (result: Awaited<ReturnType<typeof verifyDpPrompt>>) => result.checks.filter((c) => !c.ok).map((c) => c.name);
const ledgerOf = (commits: Record<number, CommitRecord>) => ({ commit: async (id: number) => commits[id] ?? null });

const template = defaultTemplate('Classify the e-mail as spam or ham.');
const demonstrations = [{ text: 'win a prize now', label: 'spam' }, { text: 'see you at lunch', label: 'ham' }];
const job = composed(poissonSampled(0.05, gaussian(4, Math.SQRT2)), 64);
const size = pureDp(0.1);
const units = [41, 37];
const noisy = { kind: 'noisy' as const, mechanism: 'discrete-laplace' as const, scale: 10, l1Sensitivity: 1, epsilon: 0.1 };
const jobParameters = { shots: 2, teachers: 4, perTeacher: 1, topK: 12, maxTokens: 8 };

/** A document priced from noisy sizes charged as entry 3 (committed as 4), the job reserved as 5 and committed as 6. */
async function issued(): Promise<{ doc: DpPromptExport; commits: Record<number, CommitRecord> }> {
  const content = {
    format: DP_PROMPT_FORMAT, task: { kind: 'classification' as const, labels: ['spam', 'ham'] }, instruction: template.instruction, demonstrations,
    prompt: renderFewShotPrompt(template, demonstrations),
  };
  const event = sequence([size, job]);
  const certificate = {
    mechanism: 'dp-few-shot-gaussian' as const, epsilon: epsilonOf(event, 1e-5), delta: 1e-5, accountant: 'pld', neighbouring: 'add-remove' as const,
    privacyUnit: 'record' as const, sampling: { kind: 'poisson' as const, q: 0.05 },
    parameters: { ...jobParameters, noise: { kind: 'gaussian', sigma: 4 }, pools: [{ label: 'spam', units: units[0], demonstrations: 1, q: 4 / units[0] }, { label: 'ham', units: units[1], demonstrations: 1, q: 4 / units[1] }], template },
    event, dataset: { name: 'mail', fingerprint: 'f'.repeat(64) }, model: { backend: 'reference', name: 'reference learner', sha256: null },
    appVersion: '0.1.0', issuedAt: '2026-11-26T00:00:00.000Z', contentHash: await contentHash(content), poolSizes: noisy, sizeLedger: { entryId: 4, entryHash: 'b'.repeat(64) },
  };
  const hash = await releaseHash({ ...content, certificate });
  const doc: DpPromptExport = { ...content, certificate: { ...certificate, ledger: { entryId: 6, entryHash: 'a'.repeat(64) }, releaseHash: hash } };
  const sizes = { poolSizes: 'noisy', poolSizeEpsilon: 0.1 };
  return {
    doc,
    commits: {
      4: { entryHash: 'b'.repeat(64), outputHash: await sizeReleaseHash(units), eventJson: canonicalJson(size), parameters: { ...sizes, privacyUnit: 'record' }, chainIntact: true },
      6: { entryHash: 'a'.repeat(64), outputHash: hash, eventJson: canonicalJson(job), parameters: { method: 'dp-few-shot-gaussian', ...jobParameters, epsilon: 2, delta: 1e-5, ...sizes }, chainIntact: true },
    },
  };
}

describe('a certificate with a separately charged size release', () => {
  it('verifies both entries: the size commit holds the first part and the stated sizes, the job the rest', async () => {
    const { doc, commits } = await issued();
    const result = await verifyDpPrompt(JSON.stringify(doc), { epsilonOf, ledger: ledgerOf(commits) });
    expect(failing(result)).toEqual([]);
    expect(result.checks.find((c) => c.name === 'size ledger entry')?.detail).toBe('entry 4 charged the size release and recorded exactly the stated sizes');
  });

  it.each([
    ['recorded other sizes', (c: Record<number, CommitRecord>) => (c[4] = { ...c[4], outputHash: 'e'.repeat(64) }), ['size ledger entry']],
    ['charged another event', (c: Record<number, CommitRecord>) => (c[4] = { ...c[4], eventJson: canonicalJson(pureDp(0.05)) }), ['size ledger entry']],
    ['is missing', (c: Record<number, CommitRecord>) => delete c[4], ['size ledger entry']],
    // A job reservation that charged the whole event as well would charge the sizes twice: not what the certificate says.
    ['is also folded into the job reservation', (c: Record<number, CommitRecord>) => (c[6] = { ...c[6], eventJson: canonicalJson(sequence([size, job])) }), ['ledger event']],
  ])('fails when the size entry %s', async (_name, edit, checks) => {
    const { doc, commits } = await issued();
    edit(commits);
    expect(failing(await verifyDpPrompt(JSON.stringify(doc), { epsilonOf, ledger: ledgerOf(commits) }))).toEqual(checks);
  });

  it('cannot pass for an old-format certificate by dropping sizeLedger', async () => {
    const { doc, commits } = await issued();
    delete doc.certificate.sizeLedger;
    expect(failing(await verifyDpPrompt(JSON.stringify(doc), { epsilonOf, ledger: ledgerOf(commits) }))).toEqual(['release hash', 'ledger output hash', 'ledger event']);
  });
});

describe('a certificate issued with the size release folded into the job event (Veil at fcc9cef)', () => {
  const fixture = JSON.parse(readFileSync(join(__dirname, '../../../fixtures/certificates/dp-prompt-size-in-job-event.json'), 'utf8')) as { document: DpPromptExport; commits: Record<string, CommitRecord> };
  const text = JSON.stringify(fixture.document);
  const ledger = { commit: async (id: number) => fixture.commits[String(id)] ?? null };

  it('still verifies, the size release checked as the first part of the job reservation', async () => {
    const c = fixture.document.certificate;
    expect(c.sizeLedger).toBeUndefined();
    expect(c.poolSizes?.kind).toBe('noisy');
    expect(fixture.commits[String(c.ledger.entryId)].eventJson).toBe(canonicalJson(c.event));
    const result = await verifyDpPrompt(text, { epsilonOf, ledger });
    expect(failing(result)).toEqual([]);
    expect(result.valid).toBe(true);
    expect(result.checks.find((x) => x.name === 'size ledger entry')?.detail).toMatch(/^none named: issued while the size release was the first part of the job's own reservation/);
  });

  it('fails if its reservation charged the job alone (the sizes never charged)', async () => {
    const c = fixture.document.certificate;
    if (c.event.kind !== 'sequence') throw new Error('fixture: expected a sequence event');
    const id = String(c.ledger.entryId);
    const jobAlone = canonicalJson(c.event.events[1]);
    const unsized = { commit: async (n: number) => (String(n) === id ? { ...fixture.commits[id], eventJson: jobAlone } : null) };
    expect(failing(await verifyDpPrompt(text, { epsilonOf, ledger: unsized }))).toEqual(['ledger event']);
  });
});
