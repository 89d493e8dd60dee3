/**
 * Checks a model's hyperparameters before llama.cpp sees them. llama.cpp aborts the whole
 * process (GGML_ASSERT) on several impossible values — no blocks, zero heads, a zero
 * feed-forward length, more experts used than exist — and mis-sizes tensors on others, so
 * these are refused here with a message naming the key. Keys are `<architecture>.…`;
 * per-layer arrays (hybrid models) are left to llama.cpp, and so is everything not listed
 * (the model host still contains whatever slips through).
 */
import { GgufFormatError, type GgufValue } from './ggufReader';

/** llama.cpp's LLAMA_MAX_LAYERS. */
const MAX_BLOCKS = 512;

type Metadata = Readonly<Record<string, GgufValue>>;

function scalar(m: Metadata, key: string): number | undefined {
  const value = m[key];
  return typeof value === 'number' ? value : undefined;
}

function fail(message: string): never {
  throw new GgufFormatError(`invalid model metadata: ${message}`);
}

/** A required whole number in [min, max]; undefined for a per-layer array (left to llama.cpp). */
function whole(m: Metadata, key: string, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  const value = m[key];
  if (value === undefined) fail(`${key} is missing`);
  if (typeof value === 'object') return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    fail(`${key} is ${JSON.stringify(value)}; it must be ${max === Number.MAX_SAFE_INTEGER ? `at least ${min}` : `between ${min} and ${max}`}`);
  }
  return value;
}

function checkAttention(m: Metadata, arch: string, embedding: number): void {
  const heads = scalar(m, `${arch}.attention.head_count`);
  if (heads === undefined) return;
  if (heads <= 0) fail(`${arch}.attention.head_count is ${heads}; a model needs at least one attention head`);
  const kvHeads = scalar(m, `${arch}.attention.head_count_kv`);
  if (kvHeads !== undefined) {
    if (kvHeads <= 0) fail(`${arch}.attention.head_count_kv is ${kvHeads}; a model needs at least one key/value head`);
    if (heads % kvHeads !== 0) fail(`${arch}.attention.head_count_kv (${kvHeads}) does not divide ${arch}.attention.head_count (${heads})`);
  }
  if (m[`${arch}.attention.key_length`] === undefined && embedding % heads !== 0) {
    fail(`${arch}.attention.head_count (${heads}) does not divide ${arch}.embedding_length (${embedding})`);
  }
}

function checkExperts(m: Metadata, arch: string): void {
  const experts = scalar(m, `${arch}.expert_count`) ?? 0;
  if (experts <= 0) return;
  const used = scalar(m, `${arch}.expert_used_count`);
  if (used === undefined || used <= 0 || used > experts) fail(`${arch}.expert_used_count is ${used ?? 'missing'}; it must be between 1 and ${arch}.expert_count (${experts})`);
}

/** Throws GgufFormatError when the hyperparameters of architecture `arch` cannot describe a loadable model. */
export function validateHyperparameters(m: Metadata, arch: string): void {
  whole(m, `${arch}.block_count`, 1, MAX_BLOCKS);
  whole(m, `${arch}.context_length`, 1);
  const embedding = whole(m, `${arch}.embedding_length`, 1) ?? 0;
  // Only some architectures (state-space models) legitimately have no feed-forward network; llama does.
  if (arch === 'llama') whole(m, 'llama.feed_forward_length', 1);
  checkAttention(m, arch, embedding);
  checkExperts(m, arch);
  const tokens = m['tokenizer.ggml.tokens'];
  if (typeof tokens === 'object' && tokens.length === 0) fail('tokenizer.ggml.tokens is empty');
}
