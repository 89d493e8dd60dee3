/**
 * `veil account …`, run in-process on a program holding only this command group (its
 * output goes through process.stdout like the real CLI's; errors are CliErrors).
 * Reference values: ../shared/reference/accountant_vectors.json (dp_accounting PLD).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { accountDelta, accountEpsilon } from '../../../core/accounting';
import { calibrate } from '../../../core/accounting/calibration';
import { parsePrivacyEvent } from '../../../core/accounting/events';
import { stepsEvent } from '../../../core/accounting/steps';
import { registerAccount } from '../../../electron/cli/commands/account';
import { CliError } from '../../../electron/cli/output';

const dir = mkdtempSync(join(tmpdir(), 'veil-account-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** stdout of one run, and what it threw (undefined when it succeeded). */
async function run(...args: string[]): Promise<{ out: string; error: unknown }> {
  const program = new Command('veil').exitOverride();
  registerAccount(program);
  const chunks: string[] = [];
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    chunks.push(String(chunk));
    return true;
  });
  let error: unknown;
  try {
    await program.parseAsync(args, { from: 'user' });
  } catch (thrown) {
    error = thrown;
  } finally {
    write.mockRestore();
  }
  return { out: chunks.join(''), error };
}

async function veil(...args: string[]): Promise<string> {
  const { out, error } = await run(...args);
  if (error !== undefined) throw error;
  return out;
}

const json = async (...args: string[]) => JSON.parse(await veil(...args, '--json'));

function file(name: string, content: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

// dp_accounting case: q = 1/1500, σ = 0.51, T = 100, δ = 1/30000 → ε = 0.964880; calibrated σ for ε = 1: 0.50718.
const PSG = ['--sigma', '0.51', '--q', '0.0006666666666666666', '--steps', '100'];
const DELTA = '3.3333333333333335e-05';

describe('veil account epsilon | delta', () => {
  it('epsilon --json prints exactly {epsilon: bounds, delta, accountant, boundsBy, rdp (cross-check), seconds}', async () => {
    const out = await json('account', 'epsilon', ...PSG, '--delta', DELTA);
    expect(Object.keys(out)).toEqual(['epsilon', 'delta', 'accountant', 'boundsBy', 'rdp', 'seconds']);
    expect(out.boundsBy).toEqual({ lower: 'pld', estimate: 'pld', upper: 'pld' });
    expect(out.rdp.upper).toBeGreaterThan(out.epsilon.upper);
    expect(Object.keys(out.epsilon)).toEqual(['lower', 'estimate', 'upper']);
    expect(out).toMatchObject({ delta: 3.3333333333333335e-5, accountant: 'pld' });
    expect(out.epsilon.lower).toBeLessThanOrEqual(out.epsilon.estimate);
    expect(out.epsilon.upper).toBeCloseTo(0.96488, 3);
    expect(out.seconds).toBeGreaterThan(0);
    const rdp = await json('account', 'epsilon', ...PSG, '--delta', DELTA, '--accountant', 'rdp');
    expect(Object.keys(rdp)).toEqual(['epsilon', 'delta', 'accountant', 'boundsBy', 'seconds']);
    expect(rdp.accountant).toBe('rdp');
    expect(rdp.epsilon).toEqual(out.rdp);
  });

  it('--sampling none forces q = 1', async () => {
    const none = await json('account', 'epsilon', '--sigma', '2', '--q', '0.01', '--sampling', 'none', '--delta', '1e-5');
    expect(none.epsilon).toEqual((await json('account', 'epsilon', '--sigma', '2', '--delta', '1e-5')).epsilon);
    const sampled = await json('account', 'epsilon', '--sigma', '2', '--q', '0.01', '--delta', '1e-5');
    expect(sampled.epsilon.upper).toBeLessThan(none.epsilon.lower);
  });

  it('epsilon in words, and from an event file (RDP for sampling without replacement)', async () => {
    expect(await veil('account', 'epsilon', '--mechanism', 'laplace', '--scale', '2', '--delta', '1e-6')).toMatch(/^ε ≤ 0\.49999\d \(estimate .*\) at δ = 0\.000001 \(PLD/);
    const swor = file('swor.json', { kind: 'sampled-without-replacement', sampleSize: 100, populationSize: 10_000, event: { kind: 'gaussian', sigma: 1, sensitivity: 1, neighbouring: 'replace-one' } });
    expect((await json('account', 'epsilon', '--event', swor, '--delta', '1e-5')).accountant).toBe('rdp');
    await expect(veil('account', 'epsilon', '--event', swor, '--delta', '1e-5', '--accountant', 'pld')).rejects.toThrow(/without replacement/);
  });

  it('delta --json at ε for 10 Laplace steps', async () => {
    const out = await json('account', 'delta', '--mechanism', 'laplace', '--scale', '1', '--steps', '10', '--epsilon', '5');
    expect(Object.keys(out)).toEqual(['delta', 'epsilon', 'accountant', 'boundsBy', 'rdp', 'seconds']);
    expect(out.delta.estimate).toBeCloseTo(0.2070257, 3); // dp_accounting
    expect(out.epsilon).toBe(5);
  });
});

describe('veil account sigma', () => {
  it('--json: the Gaussian σ with its ε bounds under the target (dp_accounting: 0.50718); calibrate is an alias', async () => {
    const args = ['--epsilon', '1', '--delta', DELTA, '--q', '0.0006666666666666666', '--steps', '100'];
    const out = await json('account', 'sigma', ...args);
    expect(Object.keys(out)).toEqual(['sigma', 'epsilon', 'delta', 'accountant', 'boundsBy', 'rdp', 'seconds']);
    expect(out.sigma).toBeGreaterThan(0.5071783982098655);
    expect(out.sigma).toBeLessThan(0.5071783982098655 * 1.005);
    expect(out.epsilon.upper).toBeLessThanOrEqual(1);
    expect(out.accountant).toBe('pld');
    expect((await json('account', 'calibrate', ...args)).sigma).toBe(out.sigma);
  });

  it('--mechanism laplace | pure and --accountant rdp go through the generic calibration', async () => {
    const laplace = await json('account', 'sigma', '--mechanism', 'laplace', '--steps', '10', '--q', '0.1', '--epsilon', '1', '--delta', '1e-6');
    const check = await json('account', 'epsilon', '--mechanism', 'laplace', '--scale', String(laplace.sigma), '--steps', '10', '--q', '0.1', '--delta', '1e-6');
    expect(check.epsilon.upper).toBeLessThanOrEqual(1);
    const tighter = await json('account', 'epsilon', '--mechanism', 'laplace', '--scale', String(laplace.sigma * 0.99), '--steps', '10', '--q', '0.1', '--delta', '1e-6');
    expect(tighter.epsilon.upper).toBeGreaterThan(1);
    // ε-DP steps: ε per step rises with the target; 20 steps of ε₀ at δ = 1e-6 cost at most 20ε₀.
    const pure = await json('account', 'sigma', '--mechanism', 'pure', '--steps', '20', '--epsilon', '2', '--delta', '1e-6', '--accountant', 'rdp');
    expect(pure.accountant).toBe('rdp');
    expect(pure.epsilon.upper).toBeLessThanOrEqual(2);
    expect(pure.sigma).toBeGreaterThan(0.1);
  });
});

describe('veil account below PLD\'s rounding slack (δ = 1e-14): the facade, never null', () => {
  const STEPS = ['--q', '0.01', '--steps', '1000'];

  it('epsilon: RDP\'s finite upper bound stands in for PLD\'s infinite one, and says so', async () => {
    const out = await json('account', 'epsilon', '--sigma', '1', ...STEPS, '--delta', '1e-14');
    const facade = accountEpsilon(stepsEvent({ mechanism: 'gaussian', sensitivity: 1, q: 0.01, steps: 1000 }, 1), 1e-14);
    expect(out.epsilon).toEqual(facade.bounds);
    expect(out.epsilon.upper).toBeCloseTo(4.98, 2);
    expect(out).toMatchObject({ accountant: 'rdp', boundsBy: { lower: 'pld', estimate: 'rdp', upper: 'rdp' }, rdp: { upper: out.epsilon.upper } });
    expect(out.epsilon.lower).toBeLessThan(out.epsilon.upper);
    const text = await veil('account', 'epsilon', '--sigma', '1', ...STEPS, '--delta', '1e-14');
    expect(text).toMatch(/^ε ≤ 4\.9\d+ .* at δ = 1e-14 \(upper bound and estimate by RDP, since PLD's is infinite at δ = 1e-14, below its ~1e-12 rounding slack; lower bound by PLD; /);
  });

  it('--accountant pld: an infinite bound is "Infinity" in JSON (never null) and explained in words', async () => {
    const raw = await veil('account', 'epsilon', '--sigma', '1', ...STEPS, '--delta', '1e-14', '--accountant', 'pld', '--json');
    expect(raw).not.toContain('null');
    const out = JSON.parse(raw);
    expect(out.epsilon).toMatchObject({ estimate: 'Infinity', upper: 'Infinity' });
    expect(Number(out.epsilon.upper)).toBe(Infinity);
    expect(out.epsilon.lower).toBeGreaterThan(3);
    const text = await veil('account', 'epsilon', '--sigma', '1', ...STEPS, '--delta', '1e-14', '--accountant', 'pld');
    expect(text).toMatch(/^ε ≤ ∞ .*\n∞: PLD's upper bound is infinite at δ = 1e-14 .*--accountant auto falls back to RDP's finite bound\n$/);
    // An (ε, δ₀) event above δ: no accountant has a finite ε.
    const approx = await veil('account', 'epsilon', '--event', file('approx.json', { kind: 'approx', epsilon: 1, delta: 1e-4 }), '--delta', '1e-6', '--json');
    expect(approx).not.toContain('null');
    expect(JSON.parse(approx)).toMatchObject({ epsilon: { upper: 'Infinity' }, rdp: { upper: 'Infinity' } });
  });

  it('sigma calibrates with the facade as core calibrate() does (σ ≈ 2.57), not with PLD alone', async () => {
    const out = await json('account', 'sigma', '--epsilon', '1', '--delta', '1e-14', ...STEPS);
    const core = calibrate({ family: (p) => stepsEvent({ mechanism: 'gaussian', sensitivity: 1, q: 0.01, steps: 1000 }, p), target: { epsilon: 1, delta: 1e-14 }, decreasing: true });
    expect(out.sigma).toBe(core.parameter);
    expect(out.sigma).toBeCloseTo(2.57, 2);
    expect(out.epsilon).toEqual(core.epsilon);
    expect(out.epsilon.upper).toBeLessThanOrEqual(1);
    expect(out).toMatchObject({ accountant: 'rdp', boundsBy: { upper: 'rdp', lower: 'pld' } });
    await expect(veil('account', 'sigma', '--epsilon', '1', '--delta', '1e-14', ...STEPS, '--accountant', 'pld')).rejects.toThrow(/--accountant auto falls back to RDP's finite bound/);
  });
});

describe('veil account compose', () => {
  const events = [
    { kind: 'composed', count: 100, event: { kind: 'poisson-sampled', q: 0.01, event: { kind: 'gaussian', sigma: 1, sensitivity: 1 } } },
    { kind: 'composed', count: 5, event: { kind: 'laplace', scale: 10, sensitivity: 1 } },
  ];

  it('--events: an array or {events: [...]} is their sequence; the same JSON as epsilon / delta', async () => {
    const fromArray = await json('account', 'compose', '--events', file('array.json', events), '--delta', '1e-6');
    const fromObject = await json('account', 'compose', '--events', file('object.json', { events }), '--delta', '1e-6');
    const asEvent = await json('account', 'epsilon', '--event', file('sequence.json', { kind: 'sequence', events }), '--delta', '1e-6');
    expect(Object.keys(fromArray)).toEqual(['epsilon', 'delta', 'accountant', 'boundsBy', 'rdp', 'seconds']);
    expect(fromArray.epsilon).toEqual(asEvent.epsilon);
    expect(fromObject.epsilon).toEqual(asEvent.epsilon);
    const delta = await json('account', 'compose', '--events', file('array.json', events), '--epsilon', String(fromArray.epsilon.upper));
    // The same as asking the accountant directly; and since ε_upper(δ = 1e-6) bounds the true ε,
    // the true δ there is at most 1e-6 (certified lower bound ≤ 1e-6), yet close to it, the ε
    // bounds being ~1e-3 wide (δ ≈ 0.994e-6 here).
    expect(delta.delta).toEqual(accountDelta(parsePrivacyEvent({ kind: 'sequence', events }), fromArray.epsilon.upper).bounds);
    expect(delta.delta.lower).toBeLessThanOrEqual(1e-6);
    expect(delta.delta.upper).toBeGreaterThan(0.9e-6);
  });

  it('refuses a missing query, both queries, and files that are not lists of events', async () => {
    const path = file('array.json', events);
    await expect(veil('account', 'compose', '--events', path)).rejects.toThrow(/either --delta/);
    await expect(veil('account', 'compose', '--events', path, '--delta', '1e-6', '--epsilon', '1')).rejects.toThrow(/either --delta/);
    await expect(veil('account', 'compose', '--events', file('bad.json', { kind: 'gaussian' }), '--delta', '1e-6')).rejects.toThrow(/JSON array of events/);
    await expect(veil('account', 'compose', '--events', file('bad2.json', [{ kind: 'gaussian', sigma: -1, sensitivity: 1 }]), '--delta', '1e-6')).rejects.toThrow(/item 0 is not a privacy event: sigma/);
  });
});

describe('veil account --batch', () => {
  it('prints one JSON result per line, in one process, with the flags as defaults', async () => {
    const batch = file('cases.jsonl', [
      JSON.stringify({ sigma: 0.51, q: 0.0006666666666666666, steps: 100, delta: 3.3333333333333335e-5 }),
      '',
      JSON.stringify({ mechanism: 'laplace', scale: '2', delta: 1e-6, accountant: 'pld' }),
      JSON.stringify({ event: { kind: 'gaussian', sigma: 1, sensitivity: 1 }, delta: 1e-5 }),
    ].join('\n'));
    const lines = (await veil('account', 'epsilon', '--batch', batch, '--accountant', 'rdp')).trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => l.accountant)).toEqual(['rdp', 'pld', 'rdp']);
    expect(Object.keys(lines[1])).toEqual(['epsilon', 'delta', 'accountant', 'boundsBy', 'seconds']);
    expect(lines[1].epsilon.upper).toBeCloseTo(0.5, 5);
    const sigmas = file('sigma.jsonl', JSON.stringify({ epsilon: 1, delta: 1e-5, q: 0.01, steps: 1000 }));
    expect(JSON.parse(await veil('account', 'sigma', '--batch', sigmas)).epsilon.upper).toBeLessThanOrEqual(1);
  });

  it('a bad line yields a JSON error object for that line, the others still run, and the run fails at the end', async () => {
    const batch = file('mixed.jsonl', [
      JSON.stringify({ sigma: 1, delta: 1e-5 }),
      '{not json',
      JSON.stringify({ sigma: 1, delta: 2 }),
      JSON.stringify({ sigma: 1, delta: 1e-5, colour: 'red' }),
      JSON.stringify({ sigma: 2, delta: 1e-5 }),
    ].join('\n'));
    const { out, error } = await run('account', 'epsilon', '--batch', batch);
    const lines = out.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(5);
    expect(lines[0].epsilon.upper).toBeGreaterThan(lines[4].epsilon.upper);
    expect(lines[1]).toEqual({ line: 2, error: 'not valid JSON (column 2)' }); // where, never what: the line is not quoted
    expect(lines[2]).toEqual({ line: 3, error: '--delta must be in (0, 1), got 2' });
    expect(lines[3]).toMatchObject({ line: 4, error: expect.stringMatching(/unknown field "colour"/) });
    expect(error).toBeInstanceOf(CliError);
    expect((error as CliError).message).toBe('3 of 5 batch cases failed');
    expect((error as CliError).exitCode).not.toBe(0);
  });
});

describe('veil account errors', () => {
  it('fails with a CliError naming the flag', async () => {
    await expect(veil('account', 'epsilon', '--sigma', 'x', '--delta', '1e-5')).rejects.toThrow('--sigma must be a number, got "x"');
    await expect(veil('account', 'epsilon', '--sigma', '1')).rejects.toThrow(/--delta is required/);
    await expect(veil('account', 'epsilon', '--sigma', '1', '--delta', '2')).rejects.toBeInstanceOf(CliError);
    await expect(veil('account', 'epsilon', '--sigma', '1', '--delta', '1e-5', '--sampling', 'fixed')).rejects.toThrow(/--sampling must be poisson, none/);
    // Poisson sampling without a rate is refused, not silently q = 1 (without --sampling, no --q means no sampling).
    const { error } = await run('account', 'epsilon', '--sigma', '1', '--delta', '1e-5', '--sampling', 'poisson');
    expect(error).toBeInstanceOf(CliError);
    expect((error as CliError).message).toBe('--sampling poisson needs --q, the sampling rate per step (without sampling: --sampling none)');
    expect((error as CliError).exitCode).toBe(2);
    await expect(veil('account', 'sigma', '--epsilon', '1', '--delta', '1e-5', '--sampling', 'poisson', '--steps', '10')).rejects.toThrow(/--sampling poisson needs --q/);
    await expect(veil('account', 'sigma', '--epsilon', '1', '--delta', '1e-5', '--q', '1.5')).rejects.toThrow(/--q must be in/);
    await expect(veil('account', 'epsilon', '--event', join(dir, 'missing.json'), '--delta', '1e-5')).rejects.toThrow(/cannot read the --event file/);
    await expect(veil('account', 'epsilon', '--batch', join(dir, 'missing.jsonl'))).rejects.toThrow(/cannot read the --batch file/);
  });

  it('never quotes a file that is not JSON or not an event: it names the place or the field', async () => {
    const secret = 'Patient Jane Doe HIV positive\nsecond line';
    const privateFile = file('private.txt', secret);
    const events = await run('account', 'compose', '--events', privateFile, '--delta', '1e-5');
    expect((events.error as CliError).message).toBe(`--events ${privateFile} is not valid JSON (line 1, column 1)`);
    const event = await run('account', 'epsilon', '--event', privateFile, '--delta', '1e-5');
    expect((event.error as CliError).message).toBe(`--event ${privateFile} is not valid JSON (line 1, column 1)`);
    const notEvent = await run('account', 'epsilon', '--event', file('value.json', { kind: 'laplace', scale: 'Jane Doe', sensitivity: 1 }), '--delta', '1e-5');
    expect((notEvent.error as CliError).message).toBe('--event is not a privacy event: scale: Invalid input: expected number, received string');
    const batch = await run('account', 'epsilon', '--batch', file('private.jsonl', [secret.split('\n')[0], JSON.stringify({ 'Jane Doe': 1 })].join('\n')));
    expect(batch.out.trim().split('\n').map((l) => JSON.parse(l))).toEqual([
      { line: 1, error: 'not valid JSON (column 1)' },
      { line: 2, error: expect.stringMatching(/^unknown field "…" \(fields: /) },
    ]);
    for (const { out, error } of [events, event, notEvent, batch]) for (const word of ['Patient', 'Jane', 'HIV']) expect(`${out} ${(error as Error).message}`).not.toContain(word);
  });
});
