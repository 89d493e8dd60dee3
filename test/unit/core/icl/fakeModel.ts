/**
 * A tiny deterministic LanguageModel for the ICL tests: four tokens (a, b, c, newline);
 * the next-token distribution leans towards "a" for each "alpha" in the prompt and towards
 * "b" for each "beta", so a teacher's vector reveals its private records.
 */
import type { LanguageModel, TokenDistribution } from '../../../../core/model/languageModel';

export const TOKENS = ['a', 'b', 'c', '\n'];

function distribution(prompt: string, restrict?: readonly number[]): TokenDistribution {
  const alpha = prompt.split('alpha').length - 1;
  const beta = prompt.split('beta').length - 1;
  const weights = [1 + 3 * alpha, 1 + 3 * beta, 1, 0.05];
  const ids = restrict ?? TOKENS.map((_, i) => i);
  const total = ids.reduce((s, id) => s + weights[id], 0);
  return { tokens: restrict, probs: Float64Array.from(ids, (id) => weights[id] / total) };
}

export function fakeModel(prompts: string[] = []): LanguageModel {
  const unsupported = () => Promise.reject(new Error('not in the fake'));
  return {
    info: { backend: 'reference', name: 'fake', kind: 'baseline', vocabularySize: 4, contextLength: null, embeddingDimension: null },
    capabilities: {
      tokenize: true, fullDistribution: true, restrictedDistribution: true, batchedEvaluation: true,
      generate: false, scoreLabels: false, embeddings: false, maxTopTokens: null,
    },
    tokenize: unsupported,
    detokenize: async (tokens) => tokens.map((t) => TOKENS[t]).join(''),
    tokenText: async (t) => TOKENS[t],
    nextTokenDistribution: async (prompt, options) => distribution(String(prompt), options?.restrictTo),
    nextTokenDistributions: async (batch, options) => {
      prompts.push(...batch.map(String));
      return batch.map((p) => distribution(String(p), options?.restrictTo));
    },
    topNextTokens: async (prompt, k) => {
      const d = distribution(String(prompt));
      return [...d.probs].map((prob, token) => ({ token, prob, text: TOKENS[token] })).sort((x, y) => y.prob - x.prob).slice(0, k);
    },
    generate: unsupported,
    scoreLabels: unsupported,
    embed: unsupported,
    close: async () => undefined,
  };
}

/**
 * A model with special and byte tokens, whose next token depends only on the text written so
 * far (records change nothing): an end token and a BOS lead at the start, then "a", the two
 * UTF-8 bytes of "é" as separate tokens, then BOS ahead of the end token.
 */
interface ScriptToken {
  text: string;
  special?: 'end' | 'control';
  byte?: number;
}

export const SPECIAL_TOKENS: ScriptToken[] = [
  { text: 'a' },
  { text: '<s>', special: 'control' as const },
  { text: '<eos>', special: 'end' as const },
  { text: '<0xC3>', byte: 0xc3 },
  { text: '<0xA9>', byte: 0xa9 },
];

const NEXT: Record<string, number[]> = {
  '': [3, 4, 5, 1, 1],
  a: [1, 1, 1, 5, 1],
  'a\uFFFD': [1, 1, 1, 1, 5],
  'a\u00E9': [1, 6, 5, 1, 1],
};

export const specialTokenModel = () => scriptedModel(SPECIAL_TOKENS, NEXT);

/** A model over `vocabulary` whose next-token weights are `next[text so far]` (uniform elsewhere). */
export function scriptedModel(vocabulary: readonly ScriptToken[], next: Record<string, number[]>): LanguageModel {
  const decode = (tokens: readonly number[]) => {
    let text = '';
    let bytes: number[] = [];
    for (const t of tokens) {
      const byte = vocabulary[t].byte;
      if (byte !== undefined) bytes.push(byte);
      else if (!vocabulary[t].special) {
        text += new TextDecoder().decode(Uint8Array.from(bytes)) + vocabulary[t].text;
        bytes = [];
      }
    }
    return text + new TextDecoder().decode(Uint8Array.from(bytes));
  };
  const dist = (prompt: string, restrict?: readonly number[]): TokenDistribution => {
    const soFar = /Text:(?: ([^\n]*))?$/.exec(prompt)?.[1] ?? '';
    const weights = next[soFar] ?? vocabulary.map(() => 1);
    const ids = restrict ?? weights.map((_, i) => i);
    const total = ids.reduce((s, id) => s + weights[id], 0);
    return { tokens: restrict, probs: Float64Array.from(ids, (id) => weights[id] / total) };
  };
  const base = fakeModel();
  return {
    ...base,
    info: { ...base.info, vocabularySize: vocabulary.length },
    detokenize: async (tokens) => decode(tokens),
    tokenText: async (t) => vocabulary[t].text,
    nextTokenDistribution: async (prompt, options) => dist(String(prompt), options?.restrictTo),
    nextTokenDistributions: async (batch, options) => batch.map((p) => dist(String(p), options?.restrictTo)),
    topNextTokens: async (prompt, k) =>
      [...dist(String(prompt)).probs]
        .map((prob, token) => ({ token, prob, text: vocabulary[token].text, ...(vocabulary[token].special && { special: vocabulary[token].special }) }))
        .sort((x, y) => y.prob - x.prob)
        .slice(0, k),
  };
}
