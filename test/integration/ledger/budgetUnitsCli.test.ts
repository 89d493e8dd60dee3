/**
 * `veil budget units`: N, the privacy units of the private split, as the services count it
 * (budget.privacyUnits): records, or subjects with each subject-less record its own; as text
 * and --json; an empty private split says so; an unknown dataset is one line on stderr, exit 1.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { datasetWith, MIXED_SUBJECTS, tempServices, type TempServices } from '../../helpers/services';
import { runCliCaptured } from '../model/cliHarness';

let services: TempServices;

beforeAll(async () => {
  services = tempServices('veil-budget-units-cli-');
  const { ctx } = services;
  await datasetWith(ctx, { name: 'people', ...MIXED_SUBJECTS.dataset }, MIXED_SUBJECTS.records);
  await datasetWith(ctx, { name: 'notes', labels: ['a'] }, [
    { text: 'first note', label: 'a' },
    { text: 'second note', label: 'a' },
    { text: 'a public note', label: 'a', split: 'public' },
  ]);
  await datasetWith(ctx, { name: 'public only', labels: ['a'] }, [{ text: 'only public', label: 'a', split: 'public' }]);
  await services.ctx.close(); // the CLI opens its own
});
afterAll(() => services.remove());

const units = (...args: string[]) => runCliCaptured('budget', 'units', ...args, '--data-dir', services.dataDir);
/** `units` that must succeed: what it printed on stdout (stderr empty). */
async function printed(...args: string[]): Promise<string> {
  const r = await units(...args);
  expect(r).toMatchObject({ code: 0, stderr: '' });
  return r.stdout;
}

describe('veil budget units', () => {
  it('prints N of a subject-level dataset, each record without a subject its own unit', async () => {
    expect(await printed('--dataset', 'people')).toBe(`"people": N = ${MIXED_SUBJECTS.n} privacy units (subjects of the private split; a record without a subject id is its own subject)\n`);
    expect(JSON.parse(await printed('--dataset', 'people', '--json'))).toEqual({ datasetId: 1, dataset: 'people', unit: 'subject', n: MIXED_SUBJECTS.n });
  });

  it('counts the private records of a record-level dataset, and says when there are none', async () => {
    expect(JSON.parse(await printed('--dataset', 'notes', '--json'))).toMatchObject({ dataset: 'notes', unit: 'record', n: 2 });
    expect(await printed('--dataset', 'notes')).toBe('"notes": N = 2 privacy units (records of the private split)\n');
    expect(JSON.parse(await printed('--dataset', 'public only', '--json'))).toMatchObject({ unit: 'record', n: null });
    expect(await printed('--dataset', 'public only')).toBe('"public only" has no private records: no privacy units to count\n');
  });

  it('names an unknown dataset in one line on stderr and exits 1, printing nothing on stdout', async () => {
    expect(await units('--dataset', 'nope', '--json')).toEqual({ code: 1, stdout: '', stderr: 'veil: no dataset named "nope"\n' });
    const missing = await runCliCaptured('budget', 'units', '--data-dir', services.dataDir);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/required option '--dataset <name>' not specified/);
  });
});
