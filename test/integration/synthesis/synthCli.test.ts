/**
 * `veil synth` and `veil certificate verify` in-process on a real data directory (sample
 * e-mail dataset, reference learner): the command line with its aliases, refusals
 * before anything is reserved, a saved plan driving a job, and an edit of any certificate
 * field making `certificate verify` exit non-zero and name the problem.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callMethod } from '../../../electron/services/api';
import { withServices } from '../../../electron/cli/withServices';
import { runCliCaptured } from '../model/cliHarness';
import { sampleDataDir } from './sampleDataDir';

let dir: string;
let data: string;
const small = ['--teachers', '4', '--top-k', '12', '--max-tokens', '6'];

const cli = (...args: string[]) => runCliCaptured(...args, '--data-dir', data);

const entries = () => withServices(data, (ctx) => callMethod(ctx, 'ledger.entries', { dataset: 'mail' }));

beforeAll(async () => {
  ({ dir, data } = await sampleDataDir('veil-synth-cli-'));
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('veil synth', () => {
  it('generates with the issue\'s options (no subcommand, method alias) and writes the export', async () => {
    const file = join(dir, 'prompt.json');
    const run = await cli('synth', '--dataset', 'mail', '--method', 'tang', '--shots', '2', '--epsilon', '2', ...small, '--model', 'reference', '--out', file, '--format', 'json', '--json');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ runId: 1, out: file });
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    expect(doc.certificate).toMatchObject({ mechanism: 'dp-few-shot-gaussian', model: { backend: 'reference' }, parameters: { shots: 2, teachers: 4 } });
    expect((await entries()).filter((e) => e.type === 'reserve')).toHaveLength(1);
  }, 60_000);

  it.each([
    ['an unknown format', ['--format', 'pdf'], /--format must be one of/],
    ['an output directory', ['--out', '.'], /is a directory/],
    ['an output in a missing folder', ['--out', '/nonexistent/x.json'], /does not exist/],
    ['an unknown method', ['--method', 'dpsgd'], /--method must be one of/],
    ['a label outside the public set', ['--labels', 'phishing'], /not in the public label set/],
    ['an unknown plan', ['--plan', 'nope'], /no saved plan "nope"/],
  ])('refuses %s before reserving anything', async (_name, args, message) => {
    const before = await entries();
    const run = await cli('synth', '--dataset', 'mail', '--epsilon', '1', ...small, ...args);
    expect(run.code).toBeGreaterThan(0);
    expect(run.stderr).toMatch(message);
    expect(await entries()).toEqual(before);
  });

  it('runs a saved plan (by name), with Markdown as md and a label subset', async () => {
    expect((await cli('plan', '--workload', 'synth', '--dataset', 'mail', '--epsilon', '1.5', '--shots', '2', ...small, '--save', 'two spam')).code).toBe(0);
    const file = join(dir, 'prompt.md');
    const run = await cli('synth', '--plan', 'two spam', '--labels', 'spam', '--format', 'md', '--out', file);
    expect(run.code).toBe(0);
    expect(readFileSync(file, 'utf8')).toMatch(/Label: spam\n\nText: .*\nLabel: spam\n\n<!-- veil\.dp-prompt\/v1: \(ε=1\.500/);
    const [latest] = await withServices(data, (ctx) => callMethod(ctx, 'synth.list', { dataset: 'mail' }));
    expect(latest).toMatchObject({ epsilon: 1.5, shots: 2, status: 'succeeded' });
  }, 60_000);
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
    ['publicMetadata', () => undefined],
  ];
  const edit = (certificate: Record<string, unknown>, path: string, change: (old: unknown) => unknown) => {
    const keys = path.split(/[.[\]]+/).filter(Boolean);
    const parent = keys.slice(0, -1).reduce<Record<string, unknown>>((o, k) => o[k] as Record<string, unknown>, certificate);
    parent[keys.at(-1)!] = change(parent[keys.at(-1)!]);
  };

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
