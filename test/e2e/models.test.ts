/**
 * The Models page in Chromium through the real bridge: the reference learner as the
 * baseline backend; a generated tiny GGUF loaded by path into the real llama.cpp model
 * host (progress, metadata, SHA-256, hardware), a prompt tried against it, the way back to
 * the reference learner; an OpenAI-compatible server whose API key is never echoed; and a
 * truncated GGUF that fails with an inline error while the app keeps working. The hardware
 * summary shows before any GGUF is loaded; browser mode has no "Browse…" file dialog.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTinyLlamaGguf, tinyVocabulary } from '../../core/model/gguf/tinyLlama';
import { loadReferenceLearner } from '../../electron/services/model/referenceResources';
import { startOpenAiTestServer, type TestServer } from '../integration/model/openaiTestServer';
import { chromiumAvailable, failOnProblems, startApp, valueOf, type AppSession } from './harness';

/** Starting the model host (a forked Node process) can take a while on a busy 2-core machine. */
const SLOW = { timeout: 60_000, interval: 100 };
const QUICK = { timeout: 15_000, interval: 50 };
const API_KEY = 'sk-e2e-SECRET-4711';

describe.runIf(chromiumAvailable())('Models page in Chromium (browser mode)', () => {
  let app: AppSession;
  let modelDir: string;
  let tinyPath: string;
  let tinySha256: string;
  let server: TestServer;

  const region = (name: string) => app.page.getByRole('region', { name, exact: true });
  const activeText = () => region('Active backend').textContent();

  async function loadByPath(path: string): Promise<Locator> {
    const form = region('Load a GGUF model');
    await form.getByLabel('GGUF file path').fill(path);
    await form.getByLabel('GGUF file path').press('Enter');
    return form;
  }

  async function tryPrompt(prompt: string, maxTokens: string): Promise<Locator> {
    const panel = region('Try a prompt');
    await panel.getByLabel('Max tokens').fill(maxTokens);
    await panel.getByLabel('Prompt').fill(prompt);
    await panel.getByLabel('Prompt').press('Enter');
    return panel;
  }

  beforeAll(async () => {
    modelDir = mkdtempSync(join(tmpdir(), 'veil-e2e-models-'));
    const bytes = makeTinyLlamaGguf();
    tinyPath = join(modelDir, 'tiny.gguf');
    writeFileSync(tinyPath, bytes);
    tinySha256 = createHash('sha256').update(bytes).digest('hex');
    writeFileSync(join(modelDir, 'truncated.gguf'), bytes.subarray(0, Math.floor(bytes.length / 2)));
    server = await startOpenAiTestServer(await loadReferenceLearner(), { maxLogprobs: 5, apiKey: API_KEY });
    app = await startApp();
    await app.open('/models');
  });
  failOnProblems(() => app);
  afterAll(async () => {
    await app?.close();
    await server?.close();
    rmSync(modelDir, { recursive: true, force: true });
  });

  it('shows the reference learner as the active backend, labelled as a baseline and not an LLM', async () => {
    await expect.poll(activeText, QUICK).toMatch(/reference learner/);
    expect(await activeText()).toContain('Baseline statistical learner, not an LLM');
    expect(await region('Active backend').getByRole('button', { name: 'Use reference learner' }).isDisabled()).toBe(true);
    expect(await region('Loaded GGUF model').count()).toBe(0);
  });

  it('shows the hardware summary before any GGUF is loaded', async () => {
    const machine = region('Hardware').getByRole('table', { name: 'Machine' });
    await expect.poll(() => valueOf(machine, 'Logical cores').textContent(), QUICK).toBe(String(availableParallelism()));
    expect(await valueOf(machine, 'llama.cpp builds').textContent()).toContain(`linux-${process.arch}`);
    expect(await valueOf(machine, 'System memory').textContent()).toMatch(/GiB \(.* free\)$/);
    expect(await region('Hardware').textContent()).toContain('No GGUF is loaded');
  });

  it('checks the path field, and shows service errors inline without losing the input', async () => {
    app.allowProblems(/\/api\/call\/model\.loadGguf\b/); // the relative path is refused on purpose
    const form = region('Load a GGUF model');
    await form.getByRole('button', { name: 'Load GGUF' }).click();
    await expect.poll(() => form.textContent(), QUICK).toContain('Enter the absolute path of a .gguf file');
    await loadByPath('models/relative.gguf');
    await expect.poll(() => form.getByRole('alert').textContent(), QUICK).toMatch(/must be absolute/);
    expect(await form.getByLabel('GGUF file path').inputValue()).toBe('models/relative.gguf');
    // Browser mode has no native file dialog: only the path field.
    expect(await form.getByRole('button', { name: 'Browse…' }).count()).toBe(0);
  });

  it('loads a generated tiny GGUF by path with progress, its metadata, SHA-256 and hardware', async () => {
    await region('Load a GGUF model').getByLabel('Threads').fill('1');
    const form = await loadByPath(tinyPath);
    const bar = form.getByRole('progressbar', { name: 'Load progress' });
    await expect.poll(() => form.getByRole('status').textContent(), SLOW).toMatch(/^Loaded — 100 % in \d+\.\d\d s$/);
    expect(await bar.getAttribute('aria-valuenow')).toBe('100');

    await expect.poll(activeText, QUICK).toMatch(/llama\.cpp/);
    expect(await activeText()).not.toContain('not an LLM');
    // The status bar follows at once (not only at its 10 s poll).
    await expect.poll(() => app.page.getByTestId('status-backend').textContent(), { timeout: 3_000, interval: 50 }).toBe('Model backend: llama.cpp');
    const details = region('Loaded GGUF model');
    const metadata = details.getByRole('table', { name: 'GGUF metadata' });
    expect(await valueOf(metadata, 'Architecture').textContent()).toBe('llama');
    expect(await valueOf(metadata, 'Vocabulary size').textContent()).toBe(String(tinyVocabulary().tokens.length));
    expect(await valueOf(metadata, 'SHA-256').textContent()).toBe(tinySha256);
    expect(await valueOf(metadata, 'File').textContent()).toBe('tiny.gguf');
    expect(await valueOf(metadata, 'Quantisation').textContent()).toMatch(/F32/i);
    const hardware = region('Hardware').getByRole('table', { name: 'llama.cpp hardware' });
    expect(await valueOf(hardware, 'Threads').textContent()).toMatch(/^1 \(/);
    expect(await valueOf(hardware, 'Compute backend').textContent()).toBe('cpu');

    const template = details.getByRole('button', { name: /Chat template/ });
    expect(await template.getAttribute('aria-expanded')).toBe('false');
    await template.click();
    await expect.poll(() => details.textContent(), QUICK).toContain("message['role']");
  });

  it('tries a prompt against the loaded GGUF: generated text and the top next tokens', async () => {
    const panel = await tryPrompt('the email', '4');
    await expect.poll(() => panel.textContent(), SLOW).toMatch(/llama\.cpp · veil-tiny-llama/);
    const rows = panel.getByRole('table', { name: 'Top next tokens' }).getByRole('row');
    expect(await rows.count()).toBe(11);
    const probs = (await rows.locator('td:last-child').allTextContents()).map(Number);
    expect(probs.every((p) => p > 0 && p <= 1)).toBe(true);
    expect(probs).toEqual([...probs].sort((a, b) => b - a));
    expect(await panel.getByTestId('generated-text').textContent()).not.toBe('');
    expect(await panel.getByLabel('Prompt').inputValue()).toBe('the email');
  });

  it('returns to the reference learner', async () => {
    await region('Active backend').getByRole('button', { name: 'Use reference learner' }).click();
    await expect.poll(activeText, QUICK).toContain('Baseline statistical learner, not an LLM');
    expect(await region('Loaded GGUF model').count()).toBe(0);
    await expect.poll(() => app.page.getByTestId('status-backend').textContent(), QUICK).toBe('Model backend: reference');
  });

  it('connects an OpenAI-compatible server without echoing the API key, then unloads it', async () => {
    const form = region('OpenAI-compatible server');
    await form.getByLabel('Server base URL').fill(server.baseUrl);
    await form.getByLabel('Model name').fill('reference');
    await form.getByLabel('API key').fill(API_KEY);
    expect(await form.getByLabel('API key').getAttribute('type')).toBe('password');
    await form.getByLabel('Model name').press('Enter');
    await expect.poll(activeText, QUICK).toMatch(/OpenAI-compatible server/);
    expect(await valueOf(region('Active backend'), 'API key').textContent()).toBe('set (kept in memory only)');
    expect(await form.getByLabel('API key').inputValue()).toBe('');
    expect(server.authorizations).toContain(`Bearer ${API_KEY}`);

    const panel = await tryPrompt('Subject: free money', '2');
    await expect.poll(() => panel.textContent(), QUICK).toMatch(/openai-compatible · reference/);
    expect(await app.page.content()).not.toContain(API_KEY);

    await region('Active backend').getByRole('button', { name: 'Unload' }).click();
    await expect.poll(activeText, QUICK).toContain('Baseline statistical learner, not an LLM');
  });

  it('shows an error for a truncated GGUF and keeps working', async () => {
    const truncated = join(modelDir, 'truncated.gguf');
    const form = await loadByPath(truncated);
    await expect.poll(() => form.getByRole('alert').textContent(), SLOW).toMatch(/Could not load the model: .*truncated/);
    expect(await form.getByLabel('GGUF file path').inputValue()).toBe(truncated);
    expect(await activeText()).toContain('Baseline statistical learner, not an LLM');

    const panel = await tryPrompt('Subject: meeting notes', '2');
    await expect.poll(() => panel.textContent(), QUICK).toMatch(/reference · reference learner/);
    expect(await app.page.getByTestId('status-connection').textContent()).toMatch(/Connected/);
  });
});
