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
