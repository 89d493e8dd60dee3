/** `veil model …` and `veil doctor`: in-process with captured stdout, and as real subprocesses. */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadReferenceLearner } from '../../../electron/services/model/referenceResources';
import { runCliCaptured as cli } from './cliHarness';
import { startOpenAiTestServer, type TestServer } from './openaiTestServer';

let dir: string;
let server: TestServer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'veil-model-cli-'));
  server = await startOpenAiTestServer(await loadReferenceLearner());
});
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('veil model', () => {
  it('make-tiny writes a GGUF and info describes it', async () => {
    const file = join(dir, 'tiny.gguf');
    const made = await cli('model', 'make-tiny', file, '--seed', '7', '--json');
    expect(made.code).toBe(0);
    expect(JSON.parse(made.stdout)).toMatchObject({ path: file, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(existsSync(file)).toBe(true);
    const again = await cli('model', 'make-tiny', file);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/exists; add --overwrite to replace it/);
    expect((await cli('model', 'make-tiny', file, '--seed', '8', '--overwrite')).code).toBe(0);
    const forced = await cli('model', 'make-tiny', file, '--seed', '7', '--force');
    expect(forced).toMatchObject({ code: 0, stderr: expect.stringContaining('--force is deprecated: use --overwrite') });
    const info = await cli('model', 'info', file, '--json');
    expect(JSON.parse(info.stdout)).toMatchObject({ fileName: 'tiny.gguf', sha256: JSON.parse(made.stdout).sha256, metadata: { architecture: 'llama', vocabularySize: 734 } });
    const human = await cli('model', 'info', file);
    expect(human.stdout).toMatch(/architecture:\s+llama/);
  });

  it('try answers with the reference learner and with an OpenAI-compatible server', async () => {
    const prompt = 'Email: free money\nLabel: spam\n\nEmail: patch notes\nLabel: ham\n\nEmail: free offer\nLabel:';
    const local = await cli('model', 'try', '--model', 'reference', '--prompt', prompt, '--max-tokens', '3', '--top', '2', '--data-dir', join(dir, 'data'), '--json');
    expect(local.code).toBe(0);
    const result = JSON.parse(local.stdout);
    expect(result).toMatchObject({ backend: 'reference', finishReason: 'length' });
    expect(result.topTokens.map((t: { text: string }) => t.text)).toEqual([' spam', ' ham']);
    const remote = await cli('model', 'try', '--model', server.baseUrl, '--prompt', prompt, '--max-tokens', '3', '--top', '2', '--data-dir', join(dir, 'data'), '--json');
    expect(remote.code).toBe(0);
    expect(JSON.parse(remote.stdout)).toMatchObject({ backend: 'openai-compatible', model: 'reference', text: result.text });
    const bad = await cli('model', 'try', '--model', join(dir, 'missing.gguf'), '--prompt', 'x', '--data-dir', join(dir, 'data'));
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^veil: no such file/);
  });

  it('doctor checks every part, on the data directory’s own database, and reports each result', async () => {
    const dataDir = join(dir, 'doctor-data');
    const report = await cli('doctor', '--data-dir', dataDir, '--json');
    expect(report.code).toBe(0);
    const { ok, checks } = JSON.parse(report.stdout);
    expect(ok).toBe(true);
    expect(checks.map((c: { name: string }) => c.name)).toEqual(['sqlite', 'csprng', 'llama.cpp', 'reference learner']);
    expect(checks[0].detail).toContain(join(dataDir, 'veil.sqlite'));
    expect(checks[0].detail).not.toContain(':memory:');
    expect(existsSync(join(dataDir, 'veil.sqlite'))).toBe(true);
  });

  it('doctor exits 1 when a check fails (a data directory whose database is not SQLite), still running the others', async () => {
    const dataDir = join(dir, 'broken-data');
    mkdirSync(dataDir, { mode: 0o700 });
    writeFileSync(join(dataDir, 'veil.sqlite'), 'this is not a database, just text long enough to fill a header page '.repeat(20));
    const report = await cli('doctor', '--data-dir', dataDir, '--json');
    expect(report.code).toBe(1);
    expect(report.stderr).toMatch(/^veil: 1 check\(s\) failed/);
    const { ok, checks } = JSON.parse(report.stdout);
    expect(ok).toBe(false);
    expect(checks[0]).toMatchObject({ name: 'sqlite', ok: false, detail: expect.stringMatching(/not a database/) });
    expect(checks.slice(1).every((c: { ok: boolean }) => c.ok)).toBe(true);
    const human = await cli('doctor', '--data-dir', dataDir);
    expect(human.code).toBe(1);
    expect(human.stdout).toMatch(/^FAIL {2}sqlite/m);
  });

  it('runs as a real process: info and try on a GGUF through the model host', () => {
    const file = join(dir, 'tiny.gguf');
    const info = spawnSync(process.execPath, ['bin/veil.mjs', 'model', 'info', file, '--json'], { encoding: 'utf8' });
    expect(info.status).toBe(0);
    expect(JSON.parse(info.stdout).metadata.architecture).toBe('llama');
    const tried = spawnSync(process.execPath, ['bin/veil.mjs', 'model', 'try', '--model', file, '--prompt', 'Hello', '--max-tokens', '4', '--threads', '1', '--data-dir', join(dir, 'data'), '--json'], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(tried.status).toBe(0);
    const result = JSON.parse(tried.stdout);
    expect(result).toMatchObject({ backend: 'llama.cpp', model: 'veil-tiny-llama' });
    expect(result.topTokens).toHaveLength(10);
  });
});
