/**
 * `veil synth` and `veil certificate verify` in-process on a real data directory (sample
 * e-mail dataset, reference learner): the command line with its aliases, refusals
 * before anything is reserved, a saved plan driving a job, and an edit of any certificate
 * field making `certificate verify` exit non-zero and name the problem.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, data, dir, interruptCli, ledgerEntries as entries, useSampleDataDir } from './sampleCli';
import { callMethod } from '../../../electron/services/api';
import { withServices } from '../../../electron/cli/withServices';

const small = ['--teachers', '4', '--top-k', '12', '--max-tokens', '6'];

useSampleDataDir('veil-synth-cli-');

describe('veil synth', () => {
  it('generates with the issue\'s options (no subcommand, method alias) and writes the export', async () => {
    const file = join(dir, 'prompt.json');
    const run = await cli('synth', '--dataset', 'mail', '--method', 'tang', '--shots', '2', '--epsilon', '2', ...small, '--model', 'reference', '--out', file, '--format', 'json', '--json');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ runId: 1, out: file });
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    expect(doc.certificate).toMatchObject({ mechanism: 'dp-few-shot-gaussian', model: { backend: 'reference' }, parameters: { shots: 2, teachers: 4 } });
    // Two charges: the noisy pool sizes (their own entry, first), then the job.
    expect((await entries()).filter((e) => e.type === 'reserve').map((e) => e.event?.kind)).toEqual(['pure', 'composed']);
    expect(doc.certificate.sizeLedger.entryId).toBe((await entries())[2].id);
  }, 60_000);

  it('prices a job with `synth plan`, naming the separate size charge, and writes nothing', async () => {
    const before = await entries();
    const run = await cli('synth', 'plan', '--dataset', 'mail', '--epsilon', '2', '--shots', '2', ...small);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^pool sizes: exact here, shown to you only; the job first charges noisy sizes as their own ledger entry \(ε = 0\.1, spent even if the job is then refused\)$/m);
    expect(await entries()).toEqual(before);
  });

  it('names the model it generates with: the reference learner is a statistical baseline, a GGUF gives real demonstrations', async () => {
    const run = await cli('synth', '--dataset', 'mail', '--shots', '2', '--epsilon', '1', ...small, '--model', 'reference', '--format', 'text');
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/^Model: reference learner — a statistical baseline, not a language model.* Load a GGUF on the Models page for real demonstrations\.$/m);
  }, 60_000);

  it.each([
    ['an unknown format', ['--format', 'pdf'], /--format must be one of/],
    ['an output directory', ['--out', '.'], /is a directory/],
    ['an output in a missing folder', ['--out', '/nonexistent/x.json'], /does not exist/],
    ['an existing output file without --overwrite', ['--out', 'EXISTING'], /^veil: --out .*existing\.json exists; add --overwrite to replace it\n$/],
    ['an unknown method', ['--method', 'dpsgd'], /--method must be one of/],
    ['a label outside the public set', ['--labels', 'phishing'], /not in the public label set/],
    ['an unknown plan', ['--plan', 'nope'], /no saved plan "nope"/],
  ])('refuses %s before reserving anything', async (_name, args, message) => {
    const existing = join(dir, 'existing.json');
    writeFileSync(existing, 'my own file');
    const before = await entries();
    const run = await cli('synth', '--dataset', 'mail', '--epsilon', '1', ...small, ...args.map((a) => (a === 'EXISTING' ? existing : a)));
    expect(run.code).toBeGreaterThan(0);
    expect(run.stderr).toMatch(message);
    expect(await entries()).toEqual(before);
    expect(readFileSync(existing, 'utf8')).toBe('my own file');
  });

  it('replaces an existing --out file only with --overwrite, and so does synth export', async () => {
    const file = join(dir, 'prompt.json');
    const exported = await cli('synth', 'export', '1', '--out', file);
    expect(exported).toMatchObject({ code: 2, stdout: '', stderr: `veil: --out ${file} exists; add --overwrite to replace it\n` });
    const copy = join(dir, 'copy.md');
    writeFileSync(copy, 'mine');
    expect(await cli('synth', 'export', '1', '--format', 'md', '--out', copy, '--overwrite')).toMatchObject({ code: 0, stderr: '' });
    const first = readFileSync(copy, 'utf8');
    expect(first).toMatch(/^Classify/);
    const again = await cli('synth', '--dataset', 'mail', '--shots', '1', '--epsilon', '0.5', ...small, '--out', copy, '--overwrite', '--format', 'md', '--json');
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ out: copy });
    expect(readFileSync(copy, 'utf8')).toMatch(/<!-- veil\.dp-prompt\/v1: \(ε=0\.[45]\d*, /); // the new run's prompt
    expect(readFileSync(copy, 'utf8')).not.toBe(first);
  }, 60_000);

  it('runs a saved plan (by name), with Markdown as md and a label subset', async () => {
    expect((await cli('plan', '--workload', 'synth', '--dataset', 'mail', '--epsilon', '1.5', '--shots', '2', ...small, '--save', 'two spam')).code).toBe(0);
    const file = join(dir, 'prompt.md');
    const run = await cli('synth', '--plan', 'two spam', '--labels', 'spam', '--format', 'md', '--out', file);
    expect(run.code).toBe(0);
    // ε upper ≤ the plan's 1.5 and within the calibration tolerance (the certificate's event includes the noisy pool sizes' release).
    expect(readFileSync(file, 'utf8')).toMatch(/Label: spam\n\nText: .*\nLabel: spam\n\n<!-- veil\.dp-prompt\/v1: \(ε=1\.(49\d|500)/);
    const [latest] = await withServices(data, (ctx) => callMethod(ctx, 'synth.list', { dataset: 'mail' }));
    expect(latest).toMatchObject({ epsilon: 1.5, shots: 2, status: 'succeeded' });
  }, 60_000);
});

describe('veil synth interrupted', () => {
  it('Ctrl+C cancels the job and ends with one line naming the run and its charged ε, exit 130', async () => {
    // Interrupted once the job runs (its progress is on stderr): the budget is reserved by then.
    const { stdout, stderr } = await interruptCli(['synth', '--dataset', 'mail', '--epsilon', '1', '--shots', '32', '--max-tokens', '256', '--top-k', '50'], /\d+\/32 demonstrations/);
    expect(stdout).toBe('');
    const last = stderr.split('\n').filter(Boolean).at(-1);
    const runId = Number(/^veil: cancelled: run (\d+); its reserved ε=1 stays charged$/.exec(last ?? '')?.[1]);
    expect(runId).toBeGreaterThan(0);
    const run = await withServices(data, (ctx) => callMethod(ctx, 'synth.get', { id: runId }));
    expect(run.status).toBe('cancelled');
    const reserve = (await entries()).filter((e) => e.type === 'reserve').at(-1);
    expect(reserve?.purpose).toMatch(/32 shots/);
  }, 120_000);
});

describe('veil certificate verify', () => {
  /** certificate field → its edited value (undefined: removed). */
  const edits: [string, (old: unknown) => unknown][] = [
    ['model.backend', () => 'llama.cpp'],
    ['model.sha256', () => 'e'.repeat(64)],
    ['parameters.teachers', () => 40],
    ['parameters.pools[0].units', (n) => Number(n) + 1],
    ['parameters.noise.sigma', (x) => Number(x) * 2],
    ['dataset.fingerprint', () => '0'.repeat(64)],
    ['privacyUnit', () => 'subject'],
    ['appVersion', () => '9.9.9'],
    ['issuedAt', () => '2020-01-01T00:00:00.000Z'],
    ['sampling.q', (q) => Number(q) / 2],
    ['delta', () => 1e-9],
    ['poolSizes', () => undefined],
  ];
  const edit = (certificate: Record<string, unknown>, path: string, change: (old: unknown) => unknown) => {
    const keys = path.split(/[.[\]]+/).filter(Boolean);
    const parent = keys.slice(0, -1).reduce<Record<string, unknown>>((o, k) => o[k] as Record<string, unknown>, certificate);
    parent[keys.at(-1)!] = change(parent[keys.at(-1)!]);
  };

  it('refuses a file that is not JSON in one line that quotes none of it (exit 1: it does not verify)', async () => {
    const file = join(dir, 'private.txt');
    writeFileSync(file, 'Patient Jane Doe HIV positive\nsecond line');
    expect(await cli('certificate', 'verify', file)).toEqual({ code: 1, stdout: '', stderr: `veil: ${file} is not valid JSON (line 1, column 1): not a veil.dp-prompt/v1 document\n` });
    expect(await cli('certificate', 'verify', join(dir, 'none.json'))).toEqual({ code: 2, stdout: '', stderr: `veil: cannot read ${join(dir, 'none.json')}: no such file\n` });
  });

  it('accepts the untouched export', async () => {
    const run = await cli('certificate', 'verify', join(dir, 'prompt.json'));
    expect(run.code).toBe(0);
    expect(run.stdout).not.toMatch(/FAIL/);
  });

  it.each(edits)('exits non-zero and names an edit of certificate.%s', async (path, change) => {
    const doc = JSON.parse(readFileSync(join(dir, 'prompt.json'), 'utf8'));
    edit(doc.certificate, path, change);
    mkdirSync(join(dir, 'edited'), { recursive: true });
    const file = join(dir, 'edited', `${path}.json`);
    writeFileSync(file, JSON.stringify(doc, null, 2));
    const run = await cli('certificate', 'verify', file);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/the certificate does not verify \(.*release hash.*\)/);
    expect(run.stdout).toMatch(new RegExp(`FAIL ledger output hash: .*changed since issue: certificate\\.${path.replace(/[.[\]]/g, '\\$&')}`));
  });
});
