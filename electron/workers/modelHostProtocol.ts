/**
 * Messages between the app and the model host process (electron/workers/modelHost.ts).
 * Parent → host: `{ id, request }` or `{ cancel: id }`. Host → parent: one `reply` per
 * request, `progress` while loading, and `ready` once at start-up. Messages are
 * structured-cloned (fork with serialization 'advanced', or Electron's utilityProcess),
 * so Float64Arrays travel without JSON. No message ever carries prompt text back.
 */
export type WirePrompt = string | number[];

export interface LoadRequest {
  op: 'load';
  path: string;
  threads: number;
  /** Parallel sequences in the evaluation context (the M teacher prompts of one step). */
  sequences: number;
  /** Tokens per sequence. */
  contextSize: number;
  vocabularySize: number;
}

export type HostRequest =
  | LoadRequest
  | { op: 'unload' }
  | { op: 'hardware' }
  | { op: 'tokenize'; text: string }
  | { op: 'detokenize'; tokens: number[] }
  | { op: 'tokenTexts'; tokens: number[] }
  /** `continuing`: prompt j extends what slot j holds (teachers kept for a demonstration; llamaEvaluation.ts). */
  | { op: 'distributions'; prompts: WirePrompt[]; restrictTo?: number[]; continuing?: boolean }
  | { op: 'topTokens'; prompt: WirePrompt; k: number }
  | { op: 'generate'; prompt: WirePrompt; maxTokens: number; temperature: number; seed: number | null; stop: string[] }
  | { op: 'scoreLabels'; prompt: string; labels: string[] }
  /** The teachers of an answered query: prompt j in slot j, prefilled once, decoded together (teacherDecoding.ts); null = an empty teacher. */
  | { op: 'generateEach'; prompts: (WirePrompt | null)[]; maxTokens: number; temperature: number; seed: number | null; stop: string[] }
  | { op: 'scoreLabelsEach'; prompts: (string | null)[]; labels: string[] }
  | { op: 'embed'; texts: string[] }
  | { op: 'counters' };

export type HostOp = HostRequest['op'];

export interface LoadedModel {
  vocabularySize: number;
  contextSize: number;
  sequences: number;
  trainContextSize: number;
  embeddingDimension: number;
  bos: number | null;
  eos: number | null;
  loadSeconds: number;
}

export interface Hardware {
  backend: string;
  threads: number;
  cpuMathCores: number;
  /** Bytes: the model's and the context's assumed memory footprint, the host's RSS. */
  modelBytes: number | null;
  contextBytes: number | null;
  rssBytes: number;
  systemInfo: string;
}

export interface HostGeneration {
  text: string;
  tokens: number[];
  finishReason: 'length' | 'stop' | 'eos' | 'cancelled';
}

/** Work done by the loaded model's evaluation context since load (tests and benches). */
export interface EvaluationCounters {
  evaluatedTokens: number;
  evaluations: number;
}

export interface HostTopToken {
  token: number;
  prob: number;
  special?: 'end' | 'control';
}

export interface HostDistribution {
  tokens?: number[];
  probs: Float64Array;
}

export type ParentMessage = { id: number; request: HostRequest } | { cancel: number };

export type HostMessage =
  | { type: 'ready'; pid: number }
  | { type: 'reply'; id: number; ok: true; result: unknown }
  | { type: 'reply'; id: number; ok: false; error: string }
  | { type: 'progress'; id: number; progress: number };
