/**
 * What an analyst needs to know about a GGUF model, derived from its validated header:
 * architecture, parameter count (sum of tensor element counts), quantisation (the
 * declared file type, else the type holding most of the bytes), context length,
 * vocabulary size, tokenizer and chat template. A summary is only given for hyperparameters
 * llama.cpp can load (ggufHyperparameters.ts).
 */
import { validateHyperparameters } from './ggufHyperparameters';
import { FILE_TYPE_NAMES, GGML_TYPES } from './ggufTypes';
import { GgufFormatError, type GgufHeader, type GgufValue } from './ggufReader';

export interface GgufModelMetadata {
  architecture: string;
  name: string | null;
  parameterCount: number;
  quantisation: string;
  contextLength: number | null;
  embeddingLength: number | null;
  blockCount: number | null;
  vocabularySize: number | null;
  tokenizerModel: string | null;
  chatTemplate: string | null;
  ggufVersion: number;
  tensorCount: number;
  fileSize: number;
}

function num(value: GgufValue | undefined): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function str(value: GgufValue | undefined): string | null {
  return typeof value === 'string' ? value : null;
}

export function summariseGguf(header: GgufHeader): GgufModelMetadata {
  const m = header.metadata;
  const architecture = str(m['general.architecture']);
  if (!architecture) throw new GgufFormatError('general.architecture is missing: not a model file llama.cpp can load');
  validateHyperparameters(m, architecture);
  const tokens = m['tokenizer.ggml.tokens'];
  const vocabularySize = typeof tokens === 'object' ? tokens.length : num(m[`${architecture}.vocab_size`]);
  let parameterCount = 0;
  const bytesByType = new Map<number, number>();
  for (const t of header.tensors) {
    parameterCount += t.dims.reduce((a, b) => a * b, 1);
    bytesByType.set(t.type, (bytesByType.get(t.type) ?? 0) + t.byteSize);
  }
  const fileType = num(m['general.file_type']);
  let quantisation = fileType !== null ? FILE_TYPE_NAMES[fileType] : undefined;
  if (!quantisation) {
    const dominant = [...bytesByType.entries()].sort((a, b) => b[1] - a[1])[0];
    quantisation = dominant ? (GGML_TYPES.get(dominant[0])?.name ?? 'unknown') : 'unknown';
  }
  return {
    architecture,
    name: str(m['general.name']),
    parameterCount,
    quantisation,
    contextLength: num(m[`${architecture}.context_length`]),
    embeddingLength: num(m[`${architecture}.embedding_length`]),
    blockCount: num(m[`${architecture}.block_count`]),
    vocabularySize,
    tokenizerModel: str(m['tokenizer.ggml.model']),
    chatTemplate: str(m['tokenizer.chat_template']),
    ggufVersion: header.version,
    tensorCount: header.tensors.length,
    fileSize: header.fileSize,
  };
}
