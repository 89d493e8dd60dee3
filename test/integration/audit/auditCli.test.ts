/**
 * `veil audit` in-process on the sample e-mails (reference learner): the command
 * line with a baseline and a DP prompt file, the HTML report written, `audit list`, and
 * clear refusals (malformed answering target, an aggregation the task does not take, bad
 * attack, unknown run) that start nothing; private answering audited by vote, not charged.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, dir, useSampleDataDir } from '../synthesis/sampleCli';

useSampleDataDir('veil-audit-cli-');

describe('veil audit', () => {
  it('audits the baseline and an exported DP prompt file, writes the report', async () => {
    const prompt = join(dir, 'prompt.json');
    expect((await cli('synth', '--dataset', 'mail', '--shots', '2', '--epsilon', '1', '--teachers', '4', '--top-k', '12', '--max-tokens', '8', '--out', prompt)).code).toBe(0);
    const report = join(dir, 'report.html');
    const run = await cli('audit', '--dataset', 'mail', '--target', 'baseline', '--target', prompt, '--attack', 'label', '--members', '20', '--replicates', '200', '--out', report, '--json');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.result.targets.map((t: { kind: string }) => t.kind)).toEqual(['baseline', 'dp-prompt']);
    expect(result.result.targets[1].name).toBe('prompt.json');
    expect(readFileSync(report, 'utf8')).toContain('Membership-inference audit 1');
    const human = await cli('audit', 'list');
    expect(human.stdout).toMatch(/^1\tmail\tsucceeded\tplain 4-shot prompt/);
  }, 300_000);

  it.each([
    [['--target', 'answering'], /expected answering:AGGREGATION:EPS/],
    [['--target', 'answering:vote:0'], /expected answering:AGGREGATION:EPS/],
    [['--target', 'answering:embedding:1'], /classification task/],
    [['--target', 'baseline', '--attack', 'guess'], /--attack guess/],
    [['--target', 'run:42'], /no synthesis run 42/],
    [[], /--target is required/],
  ])('refuses %j', async (args, message) => {
    const run = await cli('audit', '--dataset', 'mail', ...args);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(message);
  });

  it('audits private answering by vote at a given ε, charging nothing', async () => {
    const before = JSON.parse((await cli('ledger', 'show', '--dataset', 'mail', '--json')).stdout).entries.length;
    const run = await cli('audit', '--dataset', 'mail', '--target', 'answering:vote:2:3:2', '--attack', 'label,repeat', '--members', '10', '--replicates', '100', '--json');
    expect(run.code).toBe(0);
    const [target] = JSON.parse(run.stdout).result.targets;
    expect(target.name).toBe('private answering (vote, ε = 2 per query, M = 3, 2 shots)');
    expect(target.scores.map((s: { score: string }) => s.score)).toEqual(['label-probability']);
    expect(target.skipped.map((s: { attack: string }) => s.attack)).toEqual(['repeat']);
    expect(JSON.parse((await cli('ledger', 'show', '--dataset', 'mail', '--json')).stdout).entries.length).toBe(before);
  }, 120_000);

  it('audits a plain prompt file that holds private records', async () => {
    const file = join(dir, 'plain.txt');
    writeFileSync(file, 'Classify each text as one of: spam, ham.\n\nText: hello there friend\nLabel: ham\n');
    const run = await cli('audit', '--dataset', 'mail', '--target', file, '--attack', 'label', '--members', '10', '--replicates', '100', '--json');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).result.targets[0].design).toMatch(/held-out/);
  }, 120_000);
});
