/**
 * `veil ask` and `veil certificate verify` in-process on a real data directory (the sample
 * e-mail dataset, budget ε 8): the command line, a queries file, refusals before
 * anything is reserved, plan spending nothing, evaluation mode, the export verifying and an
 * edited one failing, and the real llama.cpp path with the generated tiny GGUF.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, dir, ledgerEntries as entries, useSampleDataDir } from '../synthesis/sampleCli';
import { makeTinyLlamaGguf } from '../../../core/model/gguf/tinyLlama';

const small = ['--ensemble', '4', '--shots', '2'];

useSampleDataDir('veil-ask-cli-');

describe('veil ask', () => {
  it('answers typed queries by private voting, writes the export, and certificate verify accepts it', async () => {
    const file = join(dir, 'answers.json');
    const run = await cli('ask', '--dataset', 'mail', '--query', 'WIN A FREE PRIZE NOW click here', '--query', 'minutes of the meeting attached', '--aggregation', 'vote', '--epsilon', '1', ...small, '--out', file, '--json');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const printed = JSON.parse(run.stdout);
    expect(printed).toMatchObject({ status: 'succeeded', aggregation: 'vote', queries: 2, out: file });
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    expect(doc.format).toBe('veil.dp-answers/v1');
    expect(doc.answers.map((a: { query: string }) => a.query)).toEqual(['WIN A FREE PRIZE NOW click here', 'minutes of the meeting attached']);
    // The noisy size of the private split (its own entry, first), then the batch.
    expect((await entries()).filter((e) => e.type === 'reserve').map((e) => e.event?.kind)).toEqual(['pure', 'composed']);

    const verified = await cli('certificate', 'verify', file, '--json');
    expect(verified.code).toBe(0);
    expect(JSON.parse(verified.stdout).valid).toBe(true);
    doc.certificate.parameters.ensemble = 40;
    writeFileSync(file, JSON.stringify(doc));
    const edited = await cli('certificate', 'verify', file);
    expect(edited.code).toBe(1);
    expect(edited.stdout).toMatch(/FAIL release hash/);
  }, 120_000);

  it('plan prices a queries file and writes nothing', async () => {
    const file = join(dir, 'questions.csv');
    writeFileSync(file, 'id,question\n1,"free money, act now"\n2,lunch tomorrow?\n3,\n');
    const before = await entries();
    const run = await cli('ask', 'plan', '--dataset', 'mail', '--queries', file, '--epsilon', '2', ...small, '--json');
    expect(run.code).toBe(0);
    const plan = JSON.parse(run.stdout);
    expect(plan).toMatchObject({ aggregation: 'vote', queries: 2, noise: { kind: 'discrete-gaussian' } });
    expect(plan.epsilon.upper).toBeLessThanOrEqual(2);
    const human = await cli('ask', 'plan', '--dataset', 'mail', '--queries', file, '--epsilon', '2', '--per-query', ...small);
    expect(human.stdout).toMatch(/2 queries by vote: discrete σ = .*more such batches fit/s);
    expect(await entries()).toEqual(before);
  }, 60_000);

  it.each([
    ['no queries', [], /give exactly one of --query/],
    ['an unknown aggregation', ['--query', 'x', '--aggregation', 'gnmax'], /--aggregation must be one of/],
    ['embedding on a classification dataset', ['--query', 'x', '--aggregation', 'embedding'], /classification task/],
    ['a missing queries file', ['--queries', '/nonexistent/q.txt'], /does not exist|no such file|cannot read/i],
    ['a CSV without the column', ['--queries', 'CSV', '--column', 'body'], /no column "body"/],
  ])('refuses %s before reserving anything', async (_name, args, message) => {
    const csv = join(dir, 'q.csv');
    writeFileSync(csv, 'question\nhello\n');
    const before = await entries();
    const run = await cli('ask', '--dataset', 'mail', '--epsilon', '1', ...small, ...args.map((a) => (a === 'CSV' ? csv : a)));
    expect(run.code).toBeGreaterThan(0);
    expect(run.stderr).toMatch(message);
    expect(await entries()).toEqual(before);
  });

  it('--evaluate scores held-out records beside zero-shot and ε = ∞', async () => {
    const run = await cli('ask', '--dataset', 'mail', '--evaluate', '8', '--epsilon', '2', ...small);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/accuracy on 8 held-out records: private [\d.]+, zero-shot \(ε = 0\) [\d.]+, ensemble without noise \(ε = ∞, NOT private\) [\d.]+/);
  }, 120_000);

  it('answers through llama.cpp with the tiny GGUF', async () => {
    const gguf = join(dir, 'tiny.gguf');
    writeFileSync(gguf, makeTinyLlamaGguf());
    const run = await cli('ask', '--dataset', 'mail', '--query', 'free prize', '--epsilon', '1', '--ensemble', '3', '--model', gguf, '--threads', '1', '--json');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const printed = JSON.parse(run.stdout);
    expect(printed.certificate.model).toMatchObject({ backend: 'llama.cpp', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(['spam', 'ham']).toContain(printed.answers[0].answer);
  }, 180_000);
});
