/**
 * `veil ask --aggregation sga` and `veil public-source` in-process on a real data directory
 * (issue 15): SGA's flags, the candidates printed with the released one marked, bad flags
 * refused with exit 2 before anything is reserved, SGA refused on a dataset without public
 * examples until another dataset's public split is named.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withServices } from '../../../electron/cli/withServices';
import { callMethod } from '../../../electron/services/api';
import { runCliCaptured } from '../model/cliHarness';

let dir: string;
let data: string;
const cli = (...args: string[]) => runCliCaptured(...args, '--data-dir', data);
const small = ['--epsilon', '2', '--ensemble', '4', '--shots', '2', '--max-tokens', '12'];
const note = (i: number, split: 'private' | 'public') => ({ text: `Patient ${i} reports cough and fever.`, output: i % 2 ? 'cough and fever' : 'fever, cough', split });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'veil-sga-cli-'));
  data = join(dir, 'data');
  await withServices(data, async (ctx) => {
    await callMethod(ctx, 'vault.createDataset', { name: 'notes', task: 'generation' });
    await callMethod(ctx, 'vault.addRecords', { dataset: 'notes', records: [...Array.from({ length: 30 }, (_, i) => note(i, 'private')), ...Array.from({ length: 6 }, (_, i) => note(i + 100, 'public'))] });
    await callMethod(ctx, 'budget.set', { dataset: 'notes', epsilon: 20, delta: 1e-6 });
    await callMethod(ctx, 'vault.createDataset', { name: 'bare', task: 'generation' });
    await callMethod(ctx, 'vault.addRecords', { dataset: 'bare', records: Array.from({ length: 20 }, (_, i) => note(i + 200, 'private')) });
  });
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('veil ask --aggregation sga', () => {
  it('answers with SGA’s flags and prints the public candidates, the released one marked', async () => {
    const run = await cli('ask', '--dataset', 'notes', '--query', 'Patient reports fever.', '--aggregation', 'sga', '--sga-depth', '2', '--sga-candidates', '2', '--selection', 'nearest', ...small);
    expect(run.stderr).not.toMatch(/veil: /); // progress lines only
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^1\. .*\n {3}public candidates: 1\. .*\(released\)/);
    const json = JSON.parse((await cli('ask', '--dataset', 'notes', '--query', 'Patient reports fever.', ...small, '--json')).stdout);
    expect(json.aggregation).toBe('sga'); // the default for generation with public examples
    expect(json.certificate.parameters).toMatchObject({ sgaDepth: 2, sgaCandidates: 3, sgaSelection: 'model' });
  }, 180_000);

  it('refuses bad flags with exit 2 and nothing reserved', async () => {
    const before = await withServices(data, (ctx) => callMethod(ctx, 'ledger.entries', { dataset: 'notes' }));
    const bad = await cli('ask', '--dataset', 'notes', '--query', 'q', '--selection', 'best', ...small);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--selection must be one of model, nearest');
    expect((await cli('ask', '--dataset', 'notes', '--query', 'q', '--sga-depth', '9', ...small)).code).not.toBe(0);
    expect(await withServices(data, (ctx) => callMethod(ctx, 'ledger.entries', { dataset: 'notes' }))).toEqual(before);
  }, 60_000);

  it('needs public examples: another dataset’s public split serves once named', async () => {
    const refused = await cli('ask', 'plan', '--dataset', 'bare', '--query', 'q', '--aggregation', 'sga', ...small);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/needs public examples.*veil public-source set/);
    expect((await cli('public-source', 'set', '--dataset', 'bare')).code).toBe(2);
    const set = await cli('public-source', 'set', '--dataset', 'bare', '--from', 'notes');
    expect(set.stdout).toContain('answering uses the public split of "notes"');
    expect(JSON.parse((await cli('public-source', 'show', '--dataset', 'bare', '--json')).stdout)).toMatchObject({ from: 'notes', fromRecords: 6, uses: 'other-dataset' });
    const plan = await cli('ask', 'plan', '--dataset', 'bare', '--query', 'q', ...small);
    expect(plan.stdout).toMatch(/1 query by sga: ρ\/query = /);
    const cleared = await cli('public-source', 'set', '--dataset', 'bare', '--clear');
    expect(cleared.stdout).toContain('answering has no public examples');
  }, 60_000);
});
