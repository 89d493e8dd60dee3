/**
 * A request the services refuse as invalid is one line: on the command line each problem
 * is named by its flag with the values the flag takes (workload.topK → --top-k), in the
 * API one line of "path: message" parts; a key that is not a plain field name (it may be
 * anyone's text from a file) is never shown.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { numberRange } from '../../../electron/cli/issues';
import { BadRequestError, callMethod, issuePath, issuesLine } from '../../../electron/services/api';
import { withServices } from '../../../electron/cli/withServices';
import { runCliCaptured } from '../../integration/model/cliHarness';

const dir = mkdtempSync(join(tmpdir(), 'veil-cli-issues-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const veil = (...args: string[]) => runCliCaptured(...args, '--data-dir', join(dir, 'data'));
const plan = (...args: string[]) => veil('plan', '--workload', 'synth', '--dataset', 'X', '--epsilon', '1', ...args);

describe('refused requests on the command line', () => {
  it('names the flag and its range in one line (the tester\'s --top-k 0)', async () => {
    expect(await plan('--top-k', '0')).toEqual({ code: 2, stdout: '', stderr: 'veil: --top-k must be a whole number from 2 to 1000, got 0\n' });
  });

  it('joins several problems with "; " on one line, each by its flag', async () => {
    const run = await veil('plan', '--workload', 'answer', '--dataset', 'X', '--epsilon', '1', '--delta', '2', '--queries', '0', '--aggregation', 'mean');
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('veil: --delta must be a number > 0 and < 1, got 2; --queries must be a whole number from 1 to 1000000, got 0; --aggregation must be one of vote, embedding, keyword, sga, got "mean"\n');
  });

  it.each([
    [['--shots', '1.5'], '--shots must be a whole number from 1 to 64, got 1.5'],
    [['--epsilon', '1000'], '--epsilon must be a number > 0 and ≤ 100, got 1000'],
    [['--teachers', '0', '--max-tokens', '9999'], '--teachers must be a whole number from 1 to 200, got 0; --max-tokens must be a whole number from 1 to 512, got 9999'],
  ])('plan %j: %s', async (args, message) => {
    const run = await plan(...args);
    expect(run).toEqual({ code: 2, stdout: '', stderr: `veil: ${message}\n` });
  });

  it('says the same for synth plan, through its own flags', async () => {
    expect(await veil('synth', 'plan', '--dataset', 'X', '--epsilon', '1', '--per-teacher', '0')).toMatchObject({ code: 2, stderr: 'veil: --per-teacher must be a whole number from 1 to 50, got 0\n' });
  });

  it('plan --method takes the aliases synth takes, and names them when it refuses one', async () => {
    // The empty dataset is refused by the planner itself: the method was accepted.
    await withServices(join(dir, 'data'), (ctx) => callMethod(ctx, 'vault.createDataset', { name: 'X' }));
    for (const method of ['tang', 'TANG', 'tang-exponential', 'adadpsyn', 'dp-few-shot-gaussian']) {
      expect((await plan('--method', method)).stderr).toBe('veil: the private split of "X" is empty: nothing to plan\n');
    }
    expect(await plan('--method', 'dpsgd')).toMatchObject({
      code: 2,
      stderr: 'veil: --method must be one of tang, tang-exponential, adadpsyn, dp-few-shot-gaussian, dp-few-shot-exponential; got "dpsgd"\n',
    });
  });
});

describe('refused requests in the API', () => {
  it('BadRequestError is one line of "path: message" parts and keeps the issues', async () => {
    await withServices(join(dir, 'data'), async (ctx) => {
      const error = await callMethod(ctx, 'plan.compute', { dataset: 'X', epsilon: -1, workload: { kind: 'synth', topK: 0 } }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BadRequestError);
      const { message, method, issues } = error as BadRequestError;
      expect(message).toBe('invalid input for plan.compute: epsilon: Too small: expected number to be >0; workload.topK: Too small: expected number to be >=2');
      expect(method).toBe('plan.compute');
      expect(issues.map((i) => i.path.join('.'))).toEqual(['epsilon', 'workload.topK']);
    });
  });

  it('never shows a key that is not a plain field name', () => {
    expect(issuePath(['parameters', 'Jane Doe has HIV', 0])).toBe('parameters.…[0]');
    expect(issuePath(['records', 2, 'label'])).toBe('records[2].label');
    const strict = z.object({ a: z.number() }).strict().safeParse({ a: 1, 'Jane Doe, HIV+': 1, extra: 2 });
    expect(issuesLine(strict.error!.issues)).toBe('unknown fields "extra", 1 other');
  });

  it('states a number field\'s range', () => {
    expect(numberRange(z.number().int().min(2).max(1000))).toBe('a whole number from 2 to 1000');
    expect(numberRange(z.number().positive().lt(1))).toBe('a number > 0 and < 1');
    expect(numberRange(z.number().nonnegative())).toBe('a number ≥ 0');
    expect(numberRange(z.number())).toBe('a number');
    expect(numberRange(z.string())).toBeUndefined();
  });
});
