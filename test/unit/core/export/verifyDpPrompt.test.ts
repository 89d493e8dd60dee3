/**
 * Certificate verification: an untouched export verifies; an edit of ANY field (every leaf
 * of the document, table-driven) fails, with the edited path named when the issued copy is
 * at hand; the reservation's parameters and δ are checked; legacy v1 documents (committed
 * with their content hash) still verify.
 */
import { describe, expect, it } from 'vitest';
import { gaussian, poissonSampled, composed } from '../../../../core/accounting/events';
import { canonicalJson } from '../../../../core/export/canonicalJson';
import { contentHash, DP_PROMPT_FORMAT, releaseHash, type DpPromptExport } from '../../../../core/export/dpPromptFormat';
import { verifyDpPrompt, type CommitRecord } from '../../../../core/export/verifyDpPrompt';
import { defaultTemplate, renderFewShotPrompt } from '../../../../core/icl/prompts';

const template = defaultTemplate('Classify the e-mail as spam or ham.');
const demonstrations = [{ text: 'win a prize now', label: 'spam' }, { text: 'see you at lunch', label: 'ham' }];
const event = composed(poissonSampled(0.01, gaussian(3, Math.SQRT2)), 128);
/** A stand-in accountant: deterministic in the event and δ. */
const epsilonOf = (e: typeof event, delta: number) => {
  const x = canonicalJson(e).length / 100 + delta;
  return { lower: x, estimate: x, upper: x };
};
const jobParameters = { shots: 2, teachers: 10, perTeacher: 2, topK: 100, maxTokens: 64 };

async function exported(): Promise<{ doc: DpPromptExport; commit: CommitRecord }> {
  const content = {
    format: DP_PROMPT_FORMAT,
    task: { kind: 'classification' as const, labels: ['spam', 'ham'] },
    instruction: template.instruction,
    demonstrations,
    prompt: renderFewShotPrompt(template, demonstrations),
  };
  const certificate = {
    mechanism: 'dp-few-shot-gaussian' as const, epsilon: epsilonOf(event, 1e-6), delta: 1e-6, accountant: 'pld', neighbouring: 'add-remove' as const,
    privacyUnit: 'record' as const, sampling: { kind: 'poisson' as const, q: 0.01 },
    parameters: { ...jobParameters, noise: { kind: 'gaussian', sigma: 3 }, pools: [{ label: 'spam', units: 2000, demonstrations: 1, q: 0.01 }], template },
    event, dataset: { name: 'mail', fingerprint: 'f'.repeat(64) }, model: { backend: 'llama.cpp', name: 'tiny', sha256: 'c'.repeat(64) },
    appVersion: '0.1.0', issuedAt: '2026-11-22T00:00:00.000Z', contentHash: await contentHash(content), publicMetadata: { 'parameters.pools[].units': 'public' },
  };
  const hash = await releaseHash({ ...content, certificate });
  const doc: DpPromptExport = { ...content, certificate: { ...certificate, ledger: { entryId: 7, entryHash: 'a'.repeat(64) }, releaseHash: hash } };
  const parameters = { method: 'dp-few-shot-gaussian', ...jobParameters, epsilon: 3, delta: 1e-6 };
  return { doc, commit: { entryHash: 'a'.repeat(64), outputHash: hash, eventJson: canonicalJson(event), parameters, chainIntact: true } };
}

const ledgerOf = (commit: CommitRecord) => ({ commit: async (id: number) => (id === 7 ? commit : null) });
const failing = (result: Awaited<ReturnType<typeof verifyDpPrompt>>) => result.checks.filter((c) => !c.ok).map((c) => c.name);

/** Every leaf of a JSON value, with a function that edits it in a copy. */
function leaves(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => leaves(v, [...path, Array.isArray(value) ? Number(k) : k]));
  return [path];
}
function edited(doc: DpPromptExport, path: (string | number)[]): unknown {
  const copy = JSON.parse(JSON.stringify(doc));
  const parent = path.slice(0, -1).reduce((o, k) => o[k], copy);
  const key = path.at(-1)!;
  const old = parent[key];
  parent[key] = typeof old === 'number' ? old * 1.5 + 1 : typeof old === 'string' ? `${old}x` : typeof old === 'boolean' ? !old : 'x';
  return copy;
}

describe('verifyDpPrompt', () => {
  it('accepts an untouched export', async () => {
    const { doc, commit } = await exported();
    const result = await verifyDpPrompt(JSON.stringify(doc), { epsilonOf, ledger: ledgerOf(commit) });
    expect(failing(result)).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('detects an edit of every field of the document, and names it', async () => {
    const { doc, commit } = await exported();
    const paths = leaves(doc);
    expect(paths.length).toBeGreaterThan(40);
    for (const path of paths) {
      const result = await verifyDpPrompt(JSON.stringify(edited(doc, path)), { epsilonOf, ledger: ledgerOf({ ...commit, issued: doc }) });
      expect(result.valid, path.join('.')).toBe(false);
      // Commit-bound fields: another commit or entry hash is named, or the stated hash is not the document's.
      if (path[0] === 'certificate' && (path[1] === 'ledger' || path[1] === 'releaseHash')) continue;
      // A value the format refuses is named by the format check; any other edit by the ledger binding.
      const named = result.checks.find((c) => !c.ok && (c.name === 'ledger output hash' || c.name === 'format'))!.detail;
      const dotted = path.map((k) => (typeof k === 'number' ? `[${k}]` : `.${k}`)).join('').slice(1);
      expect(named, dotted).toContain(dotted);
    }
  });

  it.each([
    ['an edited demonstration', (d: DpPromptExport) => (d.demonstrations[0].text = 'win a car now'), ['content hash', 'release hash', 'rendered prompt', 'ledger output hash']],
    ['an edited prompt', (d: DpPromptExport) => (d.prompt += '\nText: extra'), ['content hash', 'release hash', 'rendered prompt', 'ledger output hash']],
    ['a lowered ε', (d: DpPromptExport) => (d.certificate.epsilon.upper /= 2), ['release hash', 'epsilon', 'ledger output hash']],
    // A stated ε above its event's still covers it (as one from an accountant looser than today's): the ε check passes,
    // the hashes and the reservation's ε (exceeded) catch the edit.
    ['a raised ε', (d: DpPromptExport) => (d.certificate.epsilon.upper *= 2), ['release hash', 'ledger output hash', 'ledger parameters']],
    ['another model', (d: DpPromptExport) => (d.certificate.model = { backend: 'reference', name: 'reference learner', sha256: null }), ['release hash', 'ledger output hash']],
    ['a different event', (d: DpPromptExport) => (d.certificate.event = composed(poissonSampled(0.01, gaussian(30, Math.SQRT2)), 128)), ['release hash', 'epsilon', 'ledger output hash', 'ledger event']],
    ['another ledger entry', (d: DpPromptExport) => (d.certificate.ledger.entryId = 8), ['ledger entry']],
    ['an edited release hash', (d: DpPromptExport) => (d.certificate.releaseHash = '0'.repeat(64)), ['release hash']],
    ['a removed release hash', (d: DpPromptExport) => delete d.certificate.releaseHash, ['ledger output hash']],
  ])('detects %s', async (_name, edit, checks) => {
    const { doc, commit } = await exported();
    edit(doc);
    const result = await verifyDpPrompt(JSON.stringify(doc), { epsilonOf, ledger: ledgerOf(commit) });
    expect(result.valid).toBe(false);
    expect(failing(result)).toEqual(checks);
  });

  it.each([
    ['δ', { delta: 1e-5 }, /^delta: reserved 0\.00001/],
    ['method', { method: 'adadpsyn' }, /^method/],
    ['teachers', { teachers: 20 }, /^teachers: reserved 20, certificate 10/],
    ['ε', { epsilon: 2 }, /exceeds the 2 reserved/],
  ])('checks the reservation %s against the certificate', async (_name, change, detail) => {
    const { doc, commit } = await exported();
    const result = await verifyDpPrompt(JSON.stringify(doc), { epsilonOf, ledger: ledgerOf({ ...commit, parameters: { ...commit.parameters, ...change } }) });
    expect(failing(result)).toEqual(['ledger parameters']);
    expect(result.checks.find((c) => c.name === 'ledger parameters')!.detail).toMatch(detail);
  });

  it('still verifies a legacy v1 document committed with its content hash, checking it against the reservation', async () => {
    const { doc, commit } = await exported();
    const { releaseHash: _hash, publicMetadata: _meta, ...certificate } = doc.certificate;
    const legacy = { ...doc, certificate };
    const ledger = ledgerOf({ ...commit, outputHash: certificate.contentHash });
    const result = await verifyDpPrompt(JSON.stringify(legacy), { epsilonOf, ledger });
    expect(failing(result)).toEqual([]);
    expect(result.checks.find((c) => c.name === 'release hash')!.detail).toMatch(/absent/);
    legacy.certificate.parameters = { ...legacy.certificate.parameters, teachers: 3 };
    expect(failing(await verifyDpPrompt(JSON.stringify(legacy), { epsilonOf, ledger }))).toEqual(['ledger parameters']);
  });

  it('explains a file that is not a DP prompt', async () => {
    expect((await verifyDpPrompt('{"format":"other"}', { epsilonOf })).checks[0]).toMatchObject({ name: 'format', ok: false });
    // A Markdown export (or any text): named for what it is, and nothing of the file quoted.
    const markdown = (await verifyDpPrompt('Patient Jane Doe, HIV clinic\n<!-- veil.dp-prompt/v1 -->', { epsilonOf })).checks[0].detail;
    expect(markdown).toMatch(/^not JSON: only the JSON export \(veil\.dp-prompt\/v1\) carries a verifiable certificate/);
    expect(markdown).not.toMatch(/Patient|Jane/);
  });

  it('says what a failed check found, not what a passing one would have', async () => {
    const { doc, commit } = await exported();
    doc.prompt += '\nText: extra';
    doc.certificate.event = composed(poissonSampled(0.01, gaussian(30, Math.SQRT2)), 128);
    const checks = (await verifyDpPrompt(JSON.stringify(doc), { epsilonOf, ledger: ledgerOf(commit) })).checks;
    expect(checks.find((c) => c.name === 'rendered prompt')?.detail).toMatch(/^the prompt is not the instruction and demonstrations rendered/);
    expect(checks.find((c) => c.name === 'ledger event')?.detail).toBe('the ledger charged another event than the certificate states');
  });

  it('does not call a document valid without its ledger', async () => {
    const { doc } = await exported();
    const result = await verifyDpPrompt(JSON.stringify(doc), { epsilonOf });
    expect(result.valid).toBe(false);
    expect(result.checks.at(-1)).toMatchObject({ name: 'ledger entry', detail: expect.stringMatching(/not checked/) });
  });
});
