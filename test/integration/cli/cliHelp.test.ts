/** CLI help: `veil synth --help` shows the generation flags of its default subcommand (they were only in `synth run --help`). */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

describe('veil synth --help', () => {
  it('lists the generation flags', async () => {
    const { stdout } = await run(process.execPath, ['bin/veil.mjs', 'synth', '--help']);
    for (const flag of ['--dataset <name>', '--epsilon <e>', '--shots <n>', '--teachers <m>', '--top-k <k>', '--model <model>']) expect(stdout).toContain(flag);
  }, 60_000);
});
