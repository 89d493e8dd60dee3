/** Temporary data directories with generated GGUFs, and a service context that loads one. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeTinyLlamaGguf, type TinyLlamaOptions } from '../../../core/model/gguf/tinyLlama';
import { callMethod } from '../../../electron/services/api';
import { ServiceContext } from '../../../electron/services/context';
import { ensureDataDir } from '../../../electron/services/dataDir';
import type { JobRecord } from '../../../electron/shared/api/jobs';

export interface Workspace {
  dir: string;
  ctx: ServiceContext;
  gguf(name: string, options?: TinyLlamaOptions): string;
  write(name: string, bytes: Uint8Array): string;
  load(path: string, options?: { threads?: number; sequences?: number; contextSize?: number }): Promise<JobRecord>;
  dispose(): Promise<void>;
}

export function workspace(prefix: string): Workspace {
  const dir = mkdtempSync(join(tmpdir(), `veil-${prefix}-`));
  const ctx = new ServiceContext(ensureDataDir(join(dir, 'data')), 'cli');
  const write = (name: string, bytes: Uint8Array) => {
    const path = join(dir, name);
    writeFileSync(path, bytes);
    return path;
  };
  return {
    dir,
    ctx,
    write,
    gguf: (name, options) => write(name, makeTinyLlamaGguf(options)),
    load: async (path, options = {}) => {
      const { jobId } = await callMethod(ctx, 'model.loadGguf', { path, ...options });
      return ctx.jobs.wait(jobId);
    },
    dispose: async () => {
      await ctx.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
