/**
 * `veil synth preview` and `veil synth evaluate` in-process on a real data directory (sample
 * e-mail dataset, reference learner): the preview takes `synth run`'s options, charges nothing
 * and prints its demonstrations and utility check; evaluate prints the utility check of a run
 * (DP prompt, zero-shot, real public demonstrations, most common label; accuracy and balanced
 * accuracy) and stores it on the run.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, data, dir, interruptCli, ledgerEntries as entries, useSampleDataDir } from './sampleCli';
import { callMethod } from '../../../electron/services/api';
import { withServices } from '../../../electron/cli/withServices';
import { synthesisPreviewSchema } from '../../../electron/shared/api/synthesisPreview';
import { utilitySchema } from '../../../electron/shared/api/synthesis';

const small = ['--teachers', '4', '--top-k', '12', '--max-tokens', '6'];

useSampleDataDir('veil-synth-preview-cli-');

describe('veil synth preview', () => {
  it('runs the job on the public split with run\'s options, writes the preview and charges nothing', async () => {
    const before = await entries();
    const file = join(dir, 'preview.json');
    const run = await cli('synth', 'preview', '--dataset', 'mail', '--method', 'tang', '--shots', '2', '--epsilon', '2', ...small, '--model', 'reference', '--held-out', '30', '--out', file, '--json');
    expect(run.code, run.stderr).toBe(0);
    const preview = synthesisPreviewSchema.parse(JSON.parse(run.stdout));
    expect(preview.demonstrations).toHaveLength(2);
    expect(preview.request).toMatchObject({ shots: 2, teachers: 4, topK: 12, epsilon: 2 });
    expect(preview.utility).toMatchObject({ metric: 'accuracy', examples: 30 });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(preview);
    expect(await entries()).toEqual(before);
    expect(await withServices(data, (ctx) => callMethod(ctx, 'synth.list', {}))).toEqual([]);
  }, 120_000);

  it('prints the demonstrations, the utility table and its verdict, naming the model', async () => {
    const run = await cli('synth', 'preview', '--dataset', 'mail', '--shots', '2', '--epsilon', '2', ...small, '--held-out', '20');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/^Model: reference learner/m);
    // Progress off a terminal: one line per stage, the generation then the three utility runs.
    expect(run.stderr).toMatch(/\npreview: tokens: \d+\/\d+\n(.*\n)*synthetic prompt: \d+\/60\n(.*\n)*zero-shot: \d+\/60\n(.*\n)*real public demonstrations: 60\/60\n$/);
    expect(run.stdout).toMatch(/^Preview on the public split of "mail": .*nothing charged, no private record read\.\n1\. \[spam\] ".*"\n2\. \[ham\] ".*"\naccuracy \/ balanced accuracy on 20 held-out examples with /);
    for (const row of ['DP synthetic prompt', 'zero-shot', 'real public demonstrations', 'always "']) expect(run.stdout).toContain(`  ${row}`);
    expect(run.stdout).toMatch(/The DP prompt (does|is no) better/);
  }, 120_000);

  it.each([
    ['a format other than JSON', ['--format', 'md'], /a preview is not a release/],
    ['a label outside the public set', ['--labels', 'phishing'], /not in the public label set/],
    ['a missing --epsilon', ['--epsilon', ''], /--epsilon/],
  ])('refuses %s', async (_name, args, message) => {
    const run = await cli('synth', 'preview', '--dataset', 'mail', '--epsilon', '1', ...small, ...args);
    expect(run.code).toBeGreaterThan(0);
    expect(run.stderr).toMatch(message);
  });
});

describe('veil synth preview interrupted', () => {
  it('Ctrl+C cancels the preview: one line, exit 130, nothing charged', async () => {
    const before = await entries();
    const { stdout, stderr } = await interruptCli(['synth', 'preview', '--dataset', 'mail', '--epsilon', '1', '--shots', '32', '--max-tokens', '256', '--top-k', '50'], /preview: tokens: /);
    expect(stdout).toBe('');
    expect(stderr.split('\n').filter(Boolean).at(-1)).toBe('veil: cancelled: preview on "mail" (nothing was charged)');
    expect(await entries()).toEqual(before);
  }, 120_000);
});

describe('veil synth evaluate', () => {
  it('runs the utility check of a run and stores it on the run (--held-out, --json)', async () => {
    const made = await cli('synth', '--dataset', 'mail', '--shots', '2', '--epsilon', '1', ...small, '--json');
    expect(made.code, made.stderr).toBe(0);
    const { runId } = JSON.parse(made.stdout) as { runId: number };
    const before = await entries();
    const run = await cli('synth', 'evaluate', String(runId), '--held-out', '25', '--json');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe(''); // --json: no progress
    const utility = utilitySchema.parse(JSON.parse(run.stdout));
    expect(utility).toMatchObject({ metric: 'accuracy', examples: 25 });
    expect(utility.balanced?.realPublic).not.toBeNull();
    expect(utility.mostCommon?.accuracy).toBeGreaterThanOrEqual(0.5);
    expect(await entries()).toEqual(before);
    expect((await withServices(data, (ctx) => callMethod(ctx, 'synth.get', { id: runId }))).utility).toEqual(utility);
    const text = await cli('synth', 'evaluate', String(runId), '--held-out', '25');
    expect(text.stdout).toMatch(/^accuracy \/ balanced accuracy on 25 held-out examples with .*\n {2}DP synthetic prompt +\d+\.\d %  +\d+\.\d %\n {2}zero-shot/);
  }, 120_000);

  it('refuses an unknown run with one line', async () => {
    const run = await cli('synth', 'evaluate', '999', '--json');
    expect(run.code).toBeGreaterThan(0);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  });
});
