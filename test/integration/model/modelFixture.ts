/** Temporary data directories (tempServices) with generated GGUFs, and a service context that loads one. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTinyLlamaGguf, type TinyLlamaOptions } from '../../../core/model/gguf/tinyLlama';
import { callMethod } from '../../../electron/services/api';
import type { JobRecord } from '../../../electron/shared/api/jobs';
import { tempServices, type TempServices } from '../../helpers/services';

export interface Workspace extends TempServices {
  gguf(name: string, options?: TinyLlamaOptions): string;
  write(name: string, bytes: Uint8Array): string;
  load(path: string, options?: { threads?: number; sequences?: number; contextSize?: number }): Promise<JobRecord>;
}

export function workspace(prefix: string): Workspace {
  const services = tempServices(`veil-${prefix}-`);
  const write = (name: string, bytes: Uint8Array) => {
    const path = join(services.dir, name);
    writeFileSync(path, bytes);
    return path;
  };
  return {
    ...services,
    write,
    gguf: (name, options) => write(name, makeTinyLlamaGguf(options)),
    load: async (path, options = {}) => {
      const { jobId } = await callMethod(services.ctx, 'model.loadGguf', { path, ...options });
      return services.ctx.jobs.wait(jobId);
    },
  };
}
