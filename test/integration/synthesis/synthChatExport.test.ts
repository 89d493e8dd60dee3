/**
 * Chat-format export through the command line on a real data directory (sample e-mail
 * dataset, reference learner, the exponential variant): `veil synth … --format chat --out`
 * and `veil synth export RUN --format chat` (stdout and --out) write the same messages —
 * the run's instruction as system, each synthetic demonstration verbatim as a user turn
 * with its public label as the assistant turn — and nothing else: no certificate field and
 * no private record.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withServices } from '../../../electron/cli/withServices';
import { runCliCaptured } from '../model/cliHarness';
import { sampleDataDir } from './sampleDataDir';
import { callMethod } from '../../../electron/services/api';
import { exportDocument } from '../../../electron/services/synthesis/exportFormats';

let dir: string;
let data: string;
const small = ['--teachers', '4', '--top-k', '12', '--max-tokens', '6'];

const cli = (...args: string[]) => runCliCaptured(...args, '--data-dir', data);

/** Every private record's text, page by page. */
async function privateTexts(): Promise<string[]> {
  return withServices(data, async (ctx) => {
    const texts: string[] = [];
    for (let offset = 0; ; offset += 1000) {
      const { rows, total } = await callMethod(ctx, 'vault.records', { dataset: 'mail', filter: { splits: ['private'] }, offset, limit: 1000 });
      texts.push(...rows.map((r) => r.text));
      if (offset + 1000 >= total) return texts;
    }
  });
}

beforeAll(async () => {
  ({ dir, data } = await sampleDataDir('veil-synth-chat-'));
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('chat-format export', () => {
  let runId: number;
  let written: string;

  it('`veil synth --format chat --out` writes the run\'s instruction and demonstrations as chat turns', async () => {
    const file = join(dir, 'prompt.chat.json');
    const run = await cli('synth', '--dataset', 'mail', '--method', 'tang-exponential', '--shots', '3', '--epsilon', '2', ...small, '--format', 'chat', '--out', file, '--json');
    expect(run.code).toBe(0);
    const printed = JSON.parse(run.stdout);
    expect(printed).toMatchObject({ out: file, fileName: `veil-dp-prompt-mail-run${printed.runId}.chat.json`, mediaType: 'application/json' });
    runId = printed.runId;
    written = readFileSync(file, 'utf8');
    expect(written.endsWith('\n')).toBe(true);

    const doc = (await withServices(data, (ctx) => callMethod(ctx, 'synth.get', { id: runId }))).document!;
    expect(doc.certificate.mechanism).toBe('dp-few-shot-exponential');
    // Shots spread round-robin over the labels (2 spam, 1 ham) and generated in turn.
    expect(doc.demonstrations.map((d) => d.label)).toEqual(['spam', 'ham', 'spam']);
    expect((doc.certificate.parameters.template as { inputPrefix: string }).inputPrefix).toBe('Text:');
    expect(JSON.parse(written)).toEqual([
      { role: 'system', content: doc.instruction },
      ...doc.demonstrations.flatMap((d) => [
        { role: 'user', content: `Text: ${d.text}` },
        { role: 'assistant', content: d.label },
      ]),
    ]);
    expect(doc.instruction).toBe('Classify each text as one of: spam, ham.');
  }, 60_000);

  it('`veil synth export RUN --format chat` prints and writes exactly the same file', async () => {
    const printed = await cli('synth', 'export', String(runId), '--format', 'chat');
    expect(printed.code).toBe(0);
    expect(printed.stdout).toBe(written);
    const file = join(dir, 'again.chat.json');
    const saved = await cli('synth', 'export', String(runId), '--format', 'CHAT', '--out', file);
    expect(saved.code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(written);
    // The JSON export of the same run holds the same demonstrations.
    const json = JSON.parse((await cli('synth', 'export', String(runId), '--format', 'json')).stdout);
    expect(JSON.parse(written).filter((m: { role: string }) => m.role === 'user').map((m: { content: string }) => m.content)).toEqual(
      json.demonstrations.map((d: { text: string }) => `Text: ${d.text}`),
    );
  });

  it('holds no certificate field and no private record', async () => {
    const messages = JSON.parse(written) as { role: string; content: string }[];
    const doc = (await withServices(data, (ctx) => callMethod(ctx, 'synth.get', { id: runId }))).document!;
    for (const m of messages) expect(Object.keys(m).sort()).toEqual(['content', 'role']);
    const allowed = new Set([doc.instruction, ...doc.task.labels, ...doc.demonstrations.map((d) => `Text: ${d.text}`)]);
    for (const m of messages) expect(allowed.has(m.content), m.content).toBe(true);
    for (const field of [doc.certificate.releaseHash!, doc.certificate.contentHash, doc.certificate.dataset.fingerprint, doc.certificate.ledger.entryHash]) {
      expect(written).not.toContain(field);
    }
    const texts = await privateTexts();
    expect(texts.length).toBeGreaterThan(100);
    for (const text of texts) {
      expect(written.includes(text)).toBe(false);
      expect(written.includes(JSON.stringify(text.slice(0, 60)).slice(1, -1))).toBe(false);
    }
  });

  it('`--format text` is the prompt alone, as the certificate states it, with no certificate comment', async () => {
    const doc = (await withServices(data, (ctx) => callMethod(ctx, 'synth.get', { id: runId }))).document!;
    const text = await cli('synth', 'export', String(runId), '--format', 'text');
    expect(text.code).toBe(0);
    expect(text.stdout).toBe(`${doc.prompt.trimEnd()}\n`);
    expect(text.stdout).not.toMatch(/veil\.dp-prompt|<!--/);
    expect(exportDocument(doc, 4, 'text')).toMatchObject({ fileName: expect.stringMatching(/-run4\.txt$/) as string, mediaType: 'text/plain' });
  });

  it('refuses an unknown format and a run without a released prompt', async () => {
    const format = await cli('synth', 'export', String(runId), '--format', 'pdf');
    expect(format.code).toBe(2);
    expect(format.stderr).toMatch(/--format must be one of json, md, markdown, chat/);
    const missing = await cli('synth', 'export', '999', '--format', 'chat');
    expect(missing.code).toBeGreaterThan(0);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toMatch(/no synthesis run 999/);
  });
});

describe('exportDocument (chat)', () => {
  it('names the file .chat.json and uses the input prefix of the certificate\'s template (default "Text:")', () => {
    const base = {
      format: 'veil.dp-prompt/v1' as const, task: { kind: 'classification' as const, labels: ['a', 'b'] }, instruction: 'Pick a or b.',
      demonstrations: [{ text: 'first', label: 'a' }], prompt: 'Pick a or b.\n\nEmail: first\nLabel: a\n',
    };
    const doc = (template?: object) => ({ ...base, certificate: { dataset: { name: 'My Mail!' }, parameters: template ? { template } : {} } }) as never;
    const custom = exportDocument(doc({ instruction: 'Pick a or b.', inputPrefix: 'Email:', labelPrefix: 'Label:', maxExampleChars: 400 }), 4, 'chat');
    expect(custom).toMatchObject({ fileName: 'veil-dp-prompt-my-mail-run4.chat.json', mediaType: 'application/json' });
    expect(JSON.parse(custom.content)).toEqual([
      { role: 'system', content: 'Pick a or b.' },
      { role: 'user', content: 'Email: first' },
      { role: 'assistant', content: 'a' },
    ]);
    expect(JSON.parse(exportDocument(doc(), 4, 'chat').content)[1]).toEqual({ role: 'user', content: 'Text: first' });
  });
});
