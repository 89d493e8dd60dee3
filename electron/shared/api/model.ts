/**
 * Model host methods: which backend answers (reference learner, a GGUF in llama.cpp, an
 * OpenAI-compatible server), GGUF metadata and hardware, loading (a job), trying a prompt,
 * and a native file dialog for choosing a GGUF (answered by Electron main; elsewhere unavailable).
 */
import { z } from 'zod';
import { method } from './define';

export const backendNameSchema = z.enum(['reference', 'llama.cpp', 'openai-compatible']);

export const capabilitiesSchema = z.object({
  tokenize: z.boolean(),
  fullDistribution: z.boolean(),
  restrictedDistribution: z.boolean(),
  batchedEvaluation: z.boolean(),
  generate: z.boolean(),
  scoreLabels: z.boolean(),
  embeddings: z.boolean(),
  maxTopTokens: z.number().nullable(),
});

export const ggufMetadataSchema = z.object({
  architecture: z.string(),
  name: z.string().nullable(),
  parameterCount: z.number(),
  quantisation: z.string(),
  contextLength: z.number().nullable(),
  embeddingLength: z.number().nullable(),
  blockCount: z.number().nullable(),
  vocabularySize: z.number().nullable(),
  tokenizerModel: z.string().nullable(),
  chatTemplate: z.string().nullable(),
  ggufVersion: z.number(),
  tensorCount: z.number(),
  fileSize: z.number(),
});

export const ggufInspectionSchema = z.object({
  path: z.string(),
  fileName: z.string(),
  sha256: z.string(),
  metadata: ggufMetadataSchema,
});
export type GgufInspectionDto = z.infer<typeof ggufInspectionSchema>;

/** What llama.cpp reports from the model host while a GGUF is loaded. */
const hostHardwareSchema = z.object({
  backend: z.string().describe('"cpu", or the GPU backend llama.cpp uses'),
  threads: z.number(),
  cpuMathCores: z.number(),
  modelBytes: z.number().nullable(),
  contextBytes: z.number().nullable(),
  rssBytes: z.number(),
  systemInfo: z.string(),
});

export const hardwareSchema = z.object({
  platform: z.string().describe('e.g. "linux-x64"'),
  cpuModel: z.string(),
  cpuCores: z.number().describe('logical cores available to the app'),
  totalMemoryBytes: z.number(),
  freeMemoryBytes: z.number(),
  defaultThreads: z.number().describe('llama.cpp threads when a load does not say'),
  llamaBuilds: z.array(z.string()).describe('installed prebuilt llama.cpp builds for this platform, e.g. "linux-x64", "linux-x64-vulkan"'),
  modelHost: hostHardwareSchema.nullable().describe('null until a GGUF is loaded'),
});

export const modelStatusSchema = z.object({
  active: z.object({
    backend: backendNameSchema,
    name: z.string(),
    kind: z.enum(['baseline', 'llm']).describe('"baseline": the statistical reference learner, not an LLM'),
    vocabularySize: z.number().nullable(),
    contextLength: z.number().nullable(),
    embeddingDimension: z.number().nullable(),
    capabilities: capabilitiesSchema,
  }),
  gguf: ggufInspectionSchema
    .extend({ contextSize: z.number(), sequences: z.number(), threads: z.number(), loadSeconds: z.number() })
    .nullable(),
  remote: z
    .object({ baseUrl: z.string(), model: z.string(), hasApiKey: z.boolean(), maxLogprobs: z.number().describe('the cap in use: configured, or lower if the server allows fewer') })
    .nullable(),
  hardware: hardwareSchema,
  host: z.object({
    running: z.boolean(),
    pid: z.number().nullable(),
    restarts: z.number(),
    lastCrash: z.object({ at: z.string(), message: z.string() }).nullable(),
  }),
  loadingJobId: z.string().nullable(),
  lastError: z.string().nullable(),
});
export type ModelStatus = z.infer<typeof modelStatusSchema>;

const ggufPath = z.string().min(1).max(4096).describe('absolute path of a .gguf file');

export const loadGgufInputSchema = z
  .object({
    path: ggufPath,
    threads: z.number().int().min(1).max(256).optional(),
    sequences: z.number().int().min(1).max(64).optional().describe('parallel sequences (the M teacher prompts of one step)'),
    contextSize: z.number().int().min(64).max(131072).optional().describe('tokens per sequence'),
  })
  .strict();

export const useRemoteInputSchema = z
  .object({
    baseUrl: z.string().min(1).max(2048).describe('e.g. http://127.0.0.1:8000/v1'),
    model: z.string().min(1).max(512),
    apiKey: z.string().max(4096).optional().describe('kept in memory only, never stored or logged'),
    maxLogprobs: z.number().int().min(1).max(1000).optional().describe('most logprobs to ask for (default 20); lowered to the cap the server turns out to have'),
  })
  .strict();

export const tryInputSchema = z
  .object({
    prompt: z.string().min(1).max(200_000),
    maxTokens: z.number().int().min(0).max(512).optional(),
    topK: z.number().int().min(1).max(50).optional(),
  })
  .strict();

export const tryResultSchema = z.object({
  backend: backendNameSchema,
  model: z.string(),
  text: z.string(),
  finishReason: z.enum(['length', 'stop', 'eos', 'cancelled']),
  topTokens: z.array(z.object({ token: z.number(), text: z.string(), prob: z.number() })),
  seconds: z.number(),
});
export type TryResult = z.infer<typeof tryResultSchema>;

export const pickGgufResultSchema = z.object({
  available: z.boolean().describe('false in browser mode and the CLI: no native file dialog, type the path'),
  path: z.string().nullable().describe('the chosen file; null when cancelled, only probed or unavailable'),
});

const empty = z.object({}).strict();

export const modelMethods = {
  'model.status': method(empty, modelStatusSchema, 'Active backend, GGUF metadata, hardware and model host state'),
  'model.loadGguf': method(loadGgufInputSchema, z.object({ jobId: z.string() }), 'Validate and load a GGUF into llama.cpp (a job with progress)'),
  'model.useReference': method(empty, modelStatusSchema, 'Switch to the built-in reference learner (a baseline, not an LLM)'),
  'model.useRemote': method(useRemoteInputSchema, modelStatusSchema, 'Use an OpenAI-compatible server (vLLM, llama.cpp server)'),
  'model.unload': method(empty, modelStatusSchema, 'Unload the GGUF or forget the server; back to the reference learner'),
  'model.inspect': method(z.object({ path: ggufPath }).strict(), ggufInspectionSchema, 'Validate a GGUF and show its metadata and SHA-256 without loading it'),
  'model.try': method(tryInputSchema, tryResultSchema, 'Generate from a prompt with the active backend and show the top next tokens'),
  'model.pickGguf': method(
    z.object({ probe: z.boolean().optional().describe('only say whether a file dialog is available; open none') }).strict(),
    pickGgufResultSchema,
    'Choose a .gguf file in a native file dialog (desktop app only)',
  ),
};
