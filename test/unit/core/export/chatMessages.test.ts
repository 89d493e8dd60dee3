/**
 * The chat form of a DP prompt (toChatMessages): the instruction as the system message, then
 * per demonstration a user turn (input prefix + the synthetic text, exactly) and an assistant
 * turn (its public label); a demonstration without a label (generation task) is one assistant
 * turn. Nothing else of the document — certificate, hashes, the dataset's name — is carried.
 */
import { describe, expect, it } from 'vitest';
import { toChatMessages, type DpPromptExport } from '../../../../core/export/dpPromptFormat';
import { defaultTemplate, renderFewShotPrompt } from '../../../../core/icl/prompts';

const template = defaultTemplate('Classify each text as one of: spam, ham.');
const demonstrations = [
  { text: 'win a "free" prize now — claim at once', label: 'spam' },
  { text: 'lunch at 12:30?  bring the notes', label: 'ham' },
  { text: 'cheap pills online', label: 'spam' },
];

function documentOf(demos: { text: string; label?: string }[], instruction = template.instruction): DpPromptExport {
  return {
    format: 'veil.dp-prompt/v1',
    task: { kind: demos.some((d) => d.label) ? 'classification' : 'generation', labels: [...new Set(demos.flatMap((d) => (d.label ? [d.label] : [])))] },
    instruction,
    demonstrations: demos,
    prompt: renderFewShotPrompt({ ...template, instruction }, demos),
    certificate: {
      mechanism: 'dp-few-shot-exponential',
      epsilon: { lower: 0.9, estimate: 0.95, upper: 1 },
      delta: 1e-6,
      accountant: 'pld',
      neighbouring: 'add-remove',
      privacyUnit: 'record',
      sampling: { kind: 'poisson', q: 0.04 },
      parameters: { template, pools: [{ label: 'spam', units: 4321 }] },
      event: { kind: 'pure', epsilon: 1, neighbouring: 'add-remove' },
      dataset: { name: 'SECRET-DATASET-NAME', fingerprint: 'f'.repeat(64) },
      model: { backend: 'reference', name: 'reference learner', sha256: null },
      ledger: { entryId: 12, entryHash: 'a'.repeat(64) },
      appVersion: '0.1.0',
      issuedAt: '2026-11-22T12:00:00.000Z',
      contentHash: 'c'.repeat(64),
      releaseHash: 'r'.repeat(64),
    },
  };
}

describe('toChatMessages', () => {
  it('is the instruction as system, then a user/assistant pair per demonstration, verbatim and in order', () => {
    expect(toChatMessages(documentOf(demonstrations))).toEqual([
      { role: 'system', content: 'Classify each text as one of: spam, ham.' },
      { role: 'user', content: 'Text: win a "free" prize now — claim at once' },
      { role: 'assistant', content: 'spam' },
      { role: 'user', content: 'Text: lunch at 12:30?  bring the notes' },
      { role: 'assistant', content: 'ham' },
      { role: 'user', content: 'Text: cheap pills online' },
      { role: 'assistant', content: 'spam' },
    ]);
  });

  it('uses the template\'s input prefix', () => {
    const messages = toChatMessages(documentOf(demonstrations), 'Email:');
    expect(messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(demonstrations.map((d) => `Email: ${d.text}`));
  });

  it('writes a generation demonstration as the input from the user and its output from the assistant', () => {
    const demos = [{ text: 'Patient reports mild headache.', output: 'Headache, mild.' }];
    expect(toChatMessages(documentOf(demos, 'Summarise the note.'))).toEqual([
      { role: 'system', content: 'Summarise the note.' },
      { role: 'user', content: 'Text: Patient reports mild headache.' },
      { role: 'assistant', content: 'Headache, mild.' },
    ]);
  });

  it('writes a label-less demonstration without output (older certificates) as one assistant turn with its text', () => {
    const demos = [{ text: 'Patient reports mild headache.' }, { text: 'Follow-up in two weeks.' }];
    expect(toChatMessages(documentOf(demos, 'Write a note like the examples.'))).toEqual([
      { role: 'system', content: 'Write a note like the examples.' },
      { role: 'assistant', content: 'Patient reports mild headache.' },
      { role: 'assistant', content: 'Follow-up in two weeks.' },
    ]);
  });

  it('carries nothing but roles and the released instruction, texts and labels', () => {
    const doc = documentOf(demonstrations);
    const messages = toChatMessages(doc);
    for (const m of messages) expect(Object.keys(m).sort()).toEqual(['content', 'role']);
    const json = JSON.stringify(messages);
    for (const leaked of ['SECRET-DATASET-NAME', 'f'.repeat(64), 'a'.repeat(64), 'r'.repeat(64), '4321', 'certificate', 'veil.dp-prompt']) expect(json).not.toContain(leaked);
    const allowed = new Set([doc.instruction, ...doc.task.labels, ...doc.demonstrations.map((d) => `Text: ${d.text}`)]);
    for (const m of messages) expect(allowed.has(m.content)).toBe(true);
  });

  it('survives a JSON round trip unchanged (quotes, dashes, double spaces)', () => {
    const messages = toChatMessages(documentOf(demonstrations));
    expect(JSON.parse(JSON.stringify(messages, null, 2))).toEqual(messages);
  });
});
