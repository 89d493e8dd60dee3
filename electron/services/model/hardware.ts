/**
 * The machine as the Models page shows it before any GGUF is loaded: CPU model and cores,
 * memory, the llama.cpp thread default, and which prebuilt llama.cpp builds
 * (node-llama-cpp's @node-llama-cpp/<os>-<arch>[-gpu] packages) are installed for this
 * platform — found on disk, without loading llama.cpp into the app process. What llama.cpp
 * itself reports (backend, threads, memory) joins once the model host has loaded a model.
 */
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { dirname, join } from 'node:path';
import type { ModelStatus } from '../../shared/api/model';
import type { Hardware } from '../../workers/modelHostProtocol';

const OS_NAMES: Partial<Record<NodeJS.Platform, string>> = { linux: 'linux', darwin: 'mac', win32: 'win' };

/** Installed prebuilt llama.cpp builds for this OS and CPU, e.g. ["linux-x64", "linux-x64-vulkan"]. */
function installedLlamaBuilds(): string[] {
  const prefix = `${OS_NAMES[process.platform] ?? process.platform}-${process.arch}`;
  let scope: string;
  try {
    scope = join(dirname(createRequire(import.meta.url).resolve('node-llama-cpp')), '..', '..', '@node-llama-cpp');
  } catch {
    return [];
  }
  if (!existsSync(scope)) return [];
  return readdirSync(scope)
    .filter((name) => (name === prefix || name.startsWith(`${prefix}-`)) && existsSync(join(scope, name, 'bins', name, 'llama-addon.node')))
    .sort();
}

export function hardwareSummary(defaultThreads: number, modelHost: Hardware | null): ModelStatus['hardware'] {
  return {
    platform: `${process.platform}-${process.arch}`,
    cpuModel: os.cpus()[0]?.model.trim() || 'unknown',
    cpuCores: os.availableParallelism(),
    totalMemoryBytes: os.totalmem(),
    freeMemoryBytes: os.freemem(),
    defaultThreads,
    llamaBuilds: installedLlamaBuilds(),
    modelHost,
  };
}
