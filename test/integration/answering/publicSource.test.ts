/**
 * Out-of-distribution public data (issue 15 item 6) on a real vault: a dataset with no public
 * split names another dataset whose public split serves as its public examples; the setting is
 * validated (the other dataset exists, is not itself, has the same task and public records),
 * only that dataset's public split is read, in-domain public records take precedence, and
 * deleting the source clears the setting.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicExamples } from '../../../electron/services/answering/publicExamples';
import { callMethod } from '../../../electron/services/api';
import type { ServiceContext } from '../../../electron/services/context';
import { appDatabase } from '../../../electron/services/db/appDatabase';
import { vaultSource } from '../../../electron/services/synthesis/vaultSource';
import { datasetWith, tempServices, type TempServices } from '../../helpers/services';

let services: TempServices;
let ctx: ServiceContext;

beforeAll(async () => {
  services = tempServices('veil-public-source-');
  ctx = services.ctx;
  await datasetWith(ctx, { name: 'notes', task: 'generation' }, [{ text: 'private note', output: 'PRIVATE summary' }]);
  await datasetWith(ctx, { name: 'corpus', task: 'generation' }, [
    { text: 'public text', output: 'public summary', split: 'public' },
    { text: 'corpus private text', output: 'CORPUS PRIVATE', split: 'private' },
    { text: 'corpus held-out text', output: 'CORPUS HELD OUT', split: 'held-out' },
  ]);
  await datasetWith(ctx, { name: 'no-public', task: 'generation' }, [{ text: 'x', output: 'y' }]);
  await datasetWith(ctx, { name: 'mail', labels: ['spam', 'ham'] }, [{ text: 'm', label: 'spam', split: 'public' }]);
});
afterAll(() => services.remove());

async function examplesOf(name: string) {
  const source = await vaultSource(ctx);
  return publicExamples(await appDatabase(ctx), source, await source.dataset(name), 100);
}

describe('public examples from another dataset', () => {
  it('serves only the other dataset’s public split', async () => {
    expect(await examplesOf('notes')).toEqual([]);
    expect(await callMethod(ctx, 'publicSource.get', { dataset: 'notes' })).toEqual({ dataset: 'notes', from: null, inDomain: 0, fromRecords: null, uses: 'none' });
    const set = await callMethod(ctx, 'publicSource.set', { dataset: 'notes', from: 'corpus' });
    expect(set).toEqual({ dataset: 'notes', from: 'corpus', inDomain: 0, fromRecords: 1, uses: 'other-dataset' });
    expect(await examplesOf('notes')).toEqual([{ text: 'public text', label: null, output: 'public summary' }]);
  });

  it('refuses an unknown dataset, the dataset itself, another task and a dataset without public records', async () => {
    await expect(callMethod(ctx, 'publicSource.set', { dataset: 'notes', from: 'nope' })).rejects.toThrow('no dataset named "nope"');
    await expect(callMethod(ctx, 'publicSource.set', { dataset: 'notes', from: 'notes' })).rejects.toThrow('the dataset itself');
    await expect(callMethod(ctx, 'publicSource.set', { dataset: 'notes', from: 'mail' })).rejects.toThrow('classification dataset');
    await expect(callMethod(ctx, 'publicSource.set', { dataset: 'notes', from: 'no-public' })).rejects.toThrow('no public records');
    await expect(callMethod(ctx, 'publicSource.set', { dataset: 'missing', from: 'corpus' })).rejects.toThrow('no dataset named "missing"');
    expect((await callMethod(ctx, 'publicSource.get', { dataset: 'notes' })).from).toBe('corpus'); // a refused change leaves the setting
  });

  it('in-domain public records take precedence; clearing and deleting the source end the setting', async () => {
    await callMethod(ctx, 'publicSource.set', { dataset: 'no-public', from: 'corpus' });
    await callMethod(ctx, 'vault.addRecords', { dataset: 'no-public', records: [{ text: 'own public', output: 'own summary', split: 'public' }] });
    expect((await examplesOf('no-public')).map((e) => e.output)).toEqual(['own summary']);
    expect((await callMethod(ctx, 'publicSource.get', { dataset: 'no-public' })).uses).toBe('in-domain');
    expect((await callMethod(ctx, 'publicSource.set', { dataset: 'no-public', from: null })).from).toBeNull();
    await callMethod(ctx, 'vault.deleteDataset', { dataset: 'corpus' });
    expect(await callMethod(ctx, 'publicSource.get', { dataset: 'notes' })).toMatchObject({ from: null, uses: 'none' });
  });
});
