/**
 * `veil augment` in-process on the sample e-mail dataset (budget ε 8): --plan reserves nothing;
 * a run prints what was charged and what was added, and the ledger holds exactly that charge;
 * `augment list` and `augment show` read the run and its certificate; `augment show --out`
 * writes the document `certificate verify` checks.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withServices } from '../../../electron/cli/withServices';
import { callMethod } from '../../../electron/services/api';
import { runCliCaptured } from '../model/cliHarness';
import { sampleDataDir } from '../synthesis/sampleDataDir';

let dir: string;
let data: string;
const cli = (...args: string[]) => runCliCaptured(...args, '--data-dir', data);
const reservations = async () => (await withServices(data, (ctx) => callMethod(ctx, 'ledger.entries', { dataset: 'mail' }))).filter((e) => e.type === 'reserve');

beforeAll(async () => {
  ({ dir, data } = await sampleDataDir('veil-augment-cli-'));
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('veil augment', () => {
  it('--plan prints the calibrated charge and reserves nothing', async () => {
    const run = await cli('augment', 'mail', '--epsilon', '0.5', '--plan');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/would charge ε ≤ 0\.\d+ at δ = 1e-6 .*; budget 0\.0000 of 8 spent, 0\.\d+ after; 10 examples seeded from \d+ public examples/);
    expect(await reservations()).toHaveLength(0);
  }, 120_000);

  it('charges once, adds tagged public examples and shows the certificate', async () => {
    const run = await cli('augment', 'mail', '--epsilon', '0.5', '--examples', '3');
    expect(run.stderr).not.toMatch(/Error/);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/charged ε ≤ 0\.\d+ at δ = 1e-6/);
    expect(run.stdout).toMatch(/added \d+ of 3 requested examples to the public split/);
    const reserved = await reservations();
    expect(reserved).toHaveLength(1);
    const listed = await cli('augment', 'list', '--json');
    const [stored] = JSON.parse(listed.stdout);
    expect(stored.status).toBe('succeeded');
    const shown = JSON.parse((await cli('augment', 'show', String(stored.id))).stdout);
    expect(shown.format).toBe('veil.augmentation/v1');
    expect(shown.event).toEqual(reserved[0].event);
    expect(shown.generated.tags).toEqual(['generated', `augmentation-${stored.id}`]);

    const file = join(dir, 'augmentation.json');
    expect((await cli('augment', 'show', String(stored.id), '--out', file)).code).toBe(0);
    const verified = await cli('certificate', 'verify', file);
    expect(verified.code).toBe(0);
    expect(verified.stdout).toMatch(/^ok {3}ledger output hash:/m);
    expect(verified.stdout).not.toMatch(/FAIL/);
    expect((await cli('augment', 'show', String(stored.id), '--out', file)).code).not.toBe(0); // exists: --overwrite needed
    writeFileSync(file, JSON.stringify({ ...shown, examples: [] }));
    const tampered = await cli('certificate', 'verify', file);
    expect(tampered.code).toBe(1);
    expect(tampered.stdout).toMatch(/^FAIL content hash:/m);
  }, 300_000);

  it('refuses bad input before anything is reserved', async () => {
    const before = (await reservations()).length;
    expect((await cli('augment', 'mail', '--epsilon', 'lots')).code).toBe(2);
    expect((await cli('augment', 'nosuch', '--epsilon', '0.5')).code).not.toBe(0);
    expect((await reservations()).length).toBe(before);
  }, 120_000);
});
