/**
 * A tiny llama-architecture GGUF for integration tests, benchmarks and `veil doctor`.
 *
 * Vocabulary (tokenizer.ggml.model = "llama", SentencePiece-style): <unk>, <s>, </s>, the
 * 256 byte-fallback tokens <0x00>…<0xFF>, "▁", printable ASCII characters, and every
 * "▁"-prefix of a short list of common English words (so SentencePiece merges reach whole
 * words). Weights come from a seeded deterministic generator (splitmix32 + Box–Muller):
 * they are not private and not cryptographic, and never from Math.random.
 */
import { GgmlType, GgufValueType } from './ggufTypes';
import { writeGguf, type GgufEntry, type GgufTensorSpec } from './ggufWriter';

export type TinyWeightType = 'F32' | 'F16' | 'Q8_0';

/** llama.cpp's general.file_type for each weight type (LLAMA_FTYPE_ALL_F32, MOSTLY_F16, MOSTLY_Q8_0). */
const FILE_TYPES: Record<TinyWeightType, number> = { F32: 0, F16: 1, Q8_0: 7 };

export function isTinyWeightType(name: string): name is TinyWeightType {
  return Object.hasOwn(FILE_TYPES, name);
}

export interface TinyLlamaOptions {
  seed?: number;
  embeddingLength?: number;
  feedForwardLength?: number;
  blockCount?: number;
  headCount?: number;
  headCountKv?: number;
  contextLength?: number;
  name?: string;
  /** The type of the weight matrices (norms stay F32); Q8_0 needs embedding and feed-forward lengths that are multiples of 32. */
  weights?: TinyWeightType;
  /** Metadata entries that replace (same key) or extend the generated ones — for malformed-model tests. */
  metadataOverrides?: readonly GgufEntry[];
}

const COMMON_WORDS = (
  'the of and to in is that for it as was with be by on not he this are or his from at which but have an they you ' +
  'were her she there been one all we their has would when if so no will more can who about out up them some could ' +
  'what into only other new time than two may first then do any like my now over such our man me even most made after ' +
  'also did many before must through back years where much your way well down should because each just those people ' +
  'how too little state good very make world still own see men work long get here between both life being under never ' +
  'day same another know while last might us great old year off come since against go came right used take three ' +
  'email spam ham free money offer click list mail message subject please help thanks'
).split(' ');

const TOKEN_TYPE = { NORMAL: 1, UNKNOWN: 2, CONTROL: 3, BYTE: 6 } as const;

export interface TinyVocabulary {
  tokens: string[];
  scores: number[];
  types: number[];
}

export function tinyVocabulary(): TinyVocabulary {
  const tokens: string[] = ['<unk>', '<s>', '</s>'];
  const types: number[] = [TOKEN_TYPE.UNKNOWN, TOKEN_TYPE.CONTROL, TOKEN_TYPE.CONTROL];
  const scores: number[] = [0, 0, 0];
  for (let b = 0; b < 256; b++) {
    tokens.push(`<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`);
    types.push(TOKEN_TYPE.BYTE);
    scores.push(0);
  }
  const seen = new Set<string>();
  const add = (piece: string) => {
    if (seen.has(piece)) return;
    seen.add(piece);
    tokens.push(piece);
    types.push(TOKEN_TYPE.NORMAL);
    // SentencePiece merges the highest-scoring pair first: prefer longer pieces.
    scores.push(-1000 + piece.length * 10 - tokens.length * 1e-3);
  };
  add('\u2581');
  for (let c = 0x21; c < 0x7f; c++) add(String.fromCharCode(c));
  for (const word of COMMON_WORDS) for (let end = 1; end <= word.length; end++) add(`\u2581${word.slice(0, end)}`);
  return { tokens, scores, types };
}

/** splitmix32: a small seeded PRNG for reproducible (non-private) test weights. */
function seededUniform(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    z = (z ^ (z >>> 16)) >>> 0;
    return (z + 0.5) / 4294967296;
  };
}

function gaussianFill(n: number, std: number, uniform: () => number): Float32Array {
  const out = new Float32Array(n);
  for (let i = 0; i < n; i += 2) {
    const r = Math.sqrt(-2 * Math.log(uniform()));
    const theta = 2 * Math.PI * uniform();
    out[i] = r * Math.cos(theta) * std;
    if (i + 1 < n) out[i + 1] = r * Math.sin(theta) * std;
  }
  return out;
}

/** Build the tiny model as GGUF bytes. Defaults: 64-dim, 2 blocks, 4 heads (2 KV heads), 128 FFN. */
export function makeTinyLlamaGguf(options: TinyLlamaOptions = {}): Uint8Array {
  const {
    seed = 1,
    embeddingLength: nEmbd = 64,
    feedForwardLength: nFf = 128,
    blockCount = 2,
    headCount = 4,
    headCountKv = 2,
    contextLength = 2048,
    name = 'veil-tiny-llama',
    weights = 'F32',
    metadataOverrides = [],
  } = options;
  if (nEmbd % headCount !== 0 || headCount % headCountKv !== 0) throw new Error('embeddingLength must divide into headCount heads, headCount into headCountKv groups');
  const vocab = tinyVocabulary();
  const nVocab = vocab.tokens.length;
  const headDim = nEmbd / headCount;
  const nEmbdKv = headDim * headCountKv;
  const uniform = seededUniform(seed);
  const matrixType = GgmlType[weights];
  const tensors: GgufTensorSpec[] = [];
  const matrix = (name: string, cols: number, rows: number, std: number) =>
    tensors.push({ name, dims: [cols, rows], type: matrixType, data: gaussianFill(cols * rows, std, uniform) });
  const ones = (name: string, n: number) => tensors.push({ name, dims: [n], type: GgmlType.F32, data: new Float32Array(n).fill(1) });

  matrix('token_embd.weight', nEmbd, nVocab, 1);
  for (let i = 0; i < blockCount; i++) {
    const w = 1 / Math.sqrt(nEmbd);
    ones(`blk.${i}.attn_norm.weight`, nEmbd);
    matrix(`blk.${i}.attn_q.weight`, nEmbd, nEmbd, w);
    matrix(`blk.${i}.attn_k.weight`, nEmbd, nEmbdKv, w);
    matrix(`blk.${i}.attn_v.weight`, nEmbd, nEmbdKv, w);
    matrix(`blk.${i}.attn_output.weight`, nEmbd, nEmbd, w);
    ones(`blk.${i}.ffn_norm.weight`, nEmbd);
    matrix(`blk.${i}.ffn_gate.weight`, nEmbd, nFf, w);
    matrix(`blk.${i}.ffn_up.weight`, nEmbd, nFf, w);
    matrix(`blk.${i}.ffn_down.weight`, nFf, nEmbd, 1 / Math.sqrt(nFf));
  }
  ones('output_norm.weight', nEmbd);
  matrix('output.weight', nEmbd, nVocab, 3 / Math.sqrt(nEmbd));

  const u32 = (key: string, value: number): GgufEntry => ({ key, type: GgufValueType.UINT32, value });
  const entries: GgufEntry[] = [
    { key: 'general.architecture', type: GgufValueType.STRING, value: 'llama' },
    { key: 'general.name', type: GgufValueType.STRING, value: name },
    u32('general.file_type', FILE_TYPES[weights]),
    u32('general.alignment', 32),
    u32('llama.context_length', contextLength),
    u32('llama.embedding_length', nEmbd),
    u32('llama.feed_forward_length', nFf),
    u32('llama.block_count', blockCount),
    u32('llama.attention.head_count', headCount),
    u32('llama.attention.head_count_kv', headCountKv),
    u32('llama.rope.dimension_count', headDim),
    { key: 'llama.rope.freq_base', type: GgufValueType.FLOAT32, value: 10000 },
    { key: 'llama.attention.layer_norm_rms_epsilon', type: GgufValueType.FLOAT32, value: 1e-5 },
    u32('llama.vocab_size', nVocab),
    { key: 'tokenizer.ggml.model', type: GgufValueType.STRING, value: 'llama' },
    { key: 'tokenizer.ggml.tokens', type: GgufValueType.ARRAY, itemType: GgufValueType.STRING, value: vocab.tokens },
    { key: 'tokenizer.ggml.scores', type: GgufValueType.ARRAY, itemType: GgufValueType.FLOAT32, value: vocab.scores },
    { key: 'tokenizer.ggml.token_type', type: GgufValueType.ARRAY, itemType: GgufValueType.INT32, value: vocab.types },
    u32('tokenizer.ggml.unknown_token_id', 0),
    u32('tokenizer.ggml.bos_token_id', 1),
    u32('tokenizer.ggml.eos_token_id', 2),
    { key: 'tokenizer.ggml.add_bos_token', type: GgufValueType.BOOL, value: true },
    { key: 'tokenizer.ggml.add_eos_token', type: GgufValueType.BOOL, value: false },
    {
      key: 'tokenizer.chat_template',
      type: GgufValueType.STRING,
      value: "{% for message in messages %}{{ message['role'] }}: {{ message['content'] }}\n{% endfor %}{% if add_generation_prompt %}assistant: {% endif %}",
    },
  ];
  const overridden = entries.map((e) => metadataOverrides.find((o) => o.key === e.key) ?? e);
  const added = metadataOverrides.filter((o) => !entries.some((e) => e.key === o.key));
  return writeGguf([...overridden, ...added], tensors);
}
