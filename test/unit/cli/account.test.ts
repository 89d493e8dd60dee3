/**
 * `veil account …`, run in-process on a program holding only this command group (its
 * output goes through process.stdout like the real CLI's; errors are CliErrors).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { registerAccount } from '../../../electron/cli/commands/account';
import { CliError } from '../../../electron/cli/output';

const dir = mkdtempSync(join(tmpdir(), 'veil-account-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function veil(...args: string[]): Promise<string> {
  const program = new Command('veil').exitOverride();
  registerAccount(program);
  const chunks: string[] = [];
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    chunks.push(String(chunk));
    return true;
  });
  try {
    await program.parseAsync(args, { from: 'user' });
  } finally {
    write.mockRestore();
  }
  return chunks.join('');
}

describe('veil account', () => {
  it('epsilon --json: certified bounds, δ, accountant, RDP cross-check and time', async () => {
    const out = JSON.parse(await veil('account', 'epsilon', '--sigma', '0.51', '--q', '0.0006666666666666666', '--steps', '100', '--delta', '3.3333333333333335e-05', '--json'));
    expect(out.accountant).toBe('pld');
    expect(out.delta).toBe(3.3333333333333335e-5);
    expect(out.epsilon.lower).toBeLessThanOrEqual(out.epsilon.estimate);
    expect(out.epsilon.upper).toBeCloseTo(0.96488, 3); // dp_accounting: 0.964880
    expect(out.rdp.upper).toBeGreaterThan(out.epsilon.upper);
    expect(out.seconds).toBeGreaterThan(0);
  });

  it('epsilon in words, and from an event file (RDP for sampling without replacement)', async () => {
    expect(await veil('account', 'epsilon', '--mechanism', 'laplace', '--scale', '2', '--delta', '1e-6')).toMatch(/^ε ≤ 0\.49999\d \(estimate .*\) at δ = 0\.000001 \(PLD/);
    const file = join(dir, 'swor.json');
    writeFileSync(file, JSON.stringify({ kind: 'sampled-without-replacement', sampleSize: 100, populationSize: 10_000, event: { kind: 'gaussian', sigma: 1, sensitivity: 1, neighbouring: 'replace-one' } }));
    const out = JSON.parse(await veil('account', 'epsilon', '--event', file, '--delta', '1e-5', '--json'));
    expect(out.accountant).toBe('rdp');
    await expect(veil('account', 'epsilon', '--event', file, '--delta', '1e-5', '--accountant', 'pld')).rejects.toThrow(/without replacement/);
  });

  it('delta --json at ε for 10 Laplace steps', async () => {
    const out = JSON.parse(await veil('account', 'delta', '--mechanism', 'laplace', '--scale', '1', '--steps', '10', '--epsilon', '5', '--json'));
    expect(out.delta.estimate).toBeCloseTo(0.2070257, 3); // dp_accounting
    expect(out.epsilon).toBe(5);
  });

  it('calibrate --json: σ with its ε bounds under the target', async () => {
    const out = JSON.parse(await veil('account', 'calibrate', '--epsilon', '1', '--delta', '3.3333333333333335e-05', '--q', '0.0006666666666666666', '--steps', '100', '--json'));
    expect(out.sigma).toBeGreaterThan(0.5071783982098655);
    expect(out.sigma).toBeLessThan(0.5071783982098655 * 1.005);
    expect(out.epsilon.upper).toBeLessThanOrEqual(1);
  });

  it('fails with a CliError naming the flag', async () => {
    await expect(veil('account', 'epsilon', '--sigma', 'x', '--delta', '1e-5')).rejects.toThrow('--sigma must be a number, got "x"');
    await expect(veil('account', 'epsilon', '--sigma', '1')).rejects.toThrow(/--delta is required/);
    await expect(veil('account', 'epsilon', '--sigma', '1', '--delta', '2')).rejects.toBeInstanceOf(CliError);
    await expect(veil('account', 'calibrate', '--epsilon', '1', '--delta', '1e-5', '--q', '1.5')).rejects.toThrow(/--q must be in/);
    await expect(veil('account', 'epsilon', '--event', join(dir, 'missing.json'), '--delta', '1e-5')).rejects.toThrow(/cannot read the event file/);
  });
});
