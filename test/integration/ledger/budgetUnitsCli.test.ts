/**
 * `veil budget units`: N, the privacy units of the private split, as the services count it
 * (budget.privacyUnits): records, or subjects with each subject-less record its own; as text
 * and --json; an empty private split says so; an unknown dataset is one line on stderr, exit 1.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../electron/cli/main';
import { datasetWith, MIXED_SUBJECTS, tempServices, type TempServices } from '../../helpers/services';
import { captureCliOutput } from '../../helpers/cliOutput';

let services: TempServices;
const { out, err } = captureCliOutput();

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

const units = (...args: string[]) => runCli(['budget', 'units', ...args, '--data-dir', services.dataDir]);

describe('veil budget units', () => {
  it('prints N of a subject-level dataset, each record without a subject its own unit', async () => {
    expect(await units('--dataset', 'people')).toBe(0);
    expect(out.join('')).toBe(`"people": N = ${MIXED_SUBJECTS.n} privacy units (subjects of the private split; a record without a subject id is its own subject)\n`);
    out.length = 0;
    expect(await units('--dataset', 'people', '--json')).toBe(0);
    expect(JSON.parse(out.join(''))).toEqual({ datasetId: 1, dataset: 'people', unit: 'subject', n: MIXED_SUBJECTS.n });
  });

  it('counts the private records of a record-level dataset, and says when there are none', async () => {
    expect(await units('--dataset', 'notes', '--json')).toBe(0);
    expect(JSON.parse(out.join(''))).toMatchObject({ dataset: 'notes', unit: 'record', n: 2 });
    out.length = 0;
    expect(await units('--dataset', 'notes')).toBe(0);
    expect(out.join('')).toBe('"notes": N = 2 privacy units (records of the private split)\n');
    out.length = 0;
    expect(await units('--dataset', 'public only', '--json')).toBe(0);
    expect(JSON.parse(out.join(''))).toMatchObject({ unit: 'record', n: null });
    out.length = 0;
    expect(await units('--dataset', 'public only')).toBe(0);
    expect(out.join('')).toBe('"public only" has no private records: no privacy units to count\n');
  });

  it('names an unknown dataset in one line on stderr and exits 1, printing nothing on stdout', async () => {
    expect(await units('--dataset', 'nope', '--json')).toBe(1);
    expect(err.join('')).toBe('veil: no dataset named "nope"\n');
    expect(out).toEqual([]);
    expect(await runCli(['budget', 'units', '--data-dir', services.dataDir])).not.toBe(0);
    expect(err.join('')).toMatch(/required option '--dataset <name>' not specified/);
  });
});
