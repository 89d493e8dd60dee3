import { describe, expect, it } from 'vitest';
import { gaussian, poissonSampled, composed } from '../../../../core/accounting/events';
import { canonicalJson } from '../../../../core/export/canonicalJson';
import { contentHash, DP_PROMPT_FORMAT, type DpPromptExport } from '../../../../core/export/dpPromptFormat';
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

async function exported(): Promise<{ doc: DpPromptExport; commit: CommitRecord }> {
  const content = {
    format: DP_PROMPT_FORMAT,
    task: { kind: 'classification' as const, labels: ['spam', 'ham'] },
    instruction: template.instruction,
    demonstrations,
    prompt: renderFewShotPrompt(template, demonstrations),
  };
  const hash = await contentHash(content);
  const doc: DpPromptExport = {
    ...content,
    certificate: {
      mechanism: 'dp-few-shot-gaussian', epsilon: epsilonOf(event, 1e-6), delta: 1e-6, accountant: 'pld', neighbouring: 'add-remove',
      privacyUnit: 'record', sampling: { kind: 'poisson', q: 0.01 }, parameters: { template }, event,
      dataset: { name: 'mail', fingerprint: 'f'.repeat(64) }, model: { backend: 'reference', name: 'reference learner', sha256: null },
      ledger: { entryId: 7, entryHash: 'a'.repeat(64) }, appVersion: '0.1.0', issuedAt: '2026-11-22T00:00:00.000Z', contentHash: hash,
    },
  };
  return { doc, commit: { entryHash: 'a'.repeat(64), outputHash: hash, eventJson: canonicalJson(event), chainIntact: true } };
}

const ledgerOf = (commit: CommitRecord) => ({ commit: async (id: number) => (id === 7 ? commit : null) });

describe('verifyDpPrompt', () => {
  it('accepts an untouched export', async () => {
    const { doc, commit } = await exported();
    const result = await verifyDpPrompt(JSON.stringify(doc), { epsilonOf, ledger: ledgerOf(commit) });
    expect(result.checks.filter((c) => !c.ok)).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it.each([
    ['an edited demonstration', (d: DpPromptExport) => (d.demonstrations[0].text = 'win a car now'), ['content hash', 'rendered prompt', 'ledger output hash']],
    ['an edited prompt', (d: DpPromptExport) => (d.prompt += '\nText: extra'), ['content hash', 'rendered prompt', 'ledger output hash']],
    ['a lowered ε', (d: DpPromptExport) => (d.certificate.epsilon.upper /= 2), ['epsilon']],
    ['a different event', (d: DpPromptExport) => (d.certificate.event = composed(poissonSampled(0.01, gaussian(30, Math.SQRT2)), 128)), ['epsilon', 'ledger event']],
    ['another ledger entry', (d: DpPromptExport) => (d.certificate.ledger.entryId = 8), ['ledger entry']],
  ])('detects %s', async (_name, edit, failing) => {
    const { doc, commit } = await exported();
    edit(doc);
    const result = await verifyDpPrompt(JSON.stringify(doc), { epsilonOf, ledger: ledgerOf(commit) });
    expect(result.valid).toBe(false);
    expect(result.checks.filter((c) => !c.ok).map((c) => c.name)).toEqual(failing);
  });

  it('explains a file that is not a DP prompt', async () => {
    expect((await verifyDpPrompt('{"format":"other"}', { epsilonOf })).checks[0]).toMatchObject({ name: 'format', ok: false });
    expect((await verifyDpPrompt('not json', { epsilonOf })).checks[0].detail).toMatch(/not JSON/);
  });

  it('does not call a document valid without its ledger', async () => {
    const { doc } = await exported();
    const result = await verifyDpPrompt(JSON.stringify(doc), { epsilonOf });
    expect(result.valid).toBe(false);
    expect(result.checks.at(-1)).toMatchObject({ name: 'ledger entry', detail: expect.stringMatching(/not checked/) });
  });
});
