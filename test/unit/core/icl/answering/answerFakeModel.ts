/**
 * A deterministic LanguageModel for the answering tests. Labels: a teacher scores each label by
 * how often its demonstrations carry it (zero-shot: all equal, the first wins). Generation: the
 * words of the demonstrations' outputs (a teacher repeats what its private records say), or,
 * zero-shot, public words drawn with the given randomness. Embeddings: hashed unit vectors.
 * A prompt holding "FAIL" makes the backend throw (a failing teacher).
 */
import type { LanguageModel } from '../../../../../core/model/languageModel';

export const PUBLIC_WORDS = ['paris', 'capital', 'france', 'city', 'river', 'seine'];
const DIMENSION = 16;

function unitVector(text: string): Float32Array {
  const v = new Float32Array(DIMENSION);
  for (const w of text.toLowerCase().split(/\W+/).filter(Boolean)) {
    let h = 0;
    for (const c of w) h = (h * 31 + c.charCodeAt(0)) >>> 0;
    v[h % DIMENSION] += 1;
  }
  if (v.every((x) => x === 0)) v[0] = 1;
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

export function answerFakeModel(calls: string[] = []): LanguageModel {
  const unsupported = () => Promise.reject(new Error('not in the fake'));
  const check = (prompt: string) => {
    calls.push(prompt);
    if (prompt.includes('FAIL')) return Promise.reject(new Error('backend failure'));
    return null;
  };
  return {
    info: { backend: 'reference', name: 'answer-fake', kind: 'baseline', vocabularySize: null, contextLength: null, embeddingDimension: DIMENSION },
    capabilities: {
      tokenize: false, fullDistribution: false, restrictedDistribution: false, batchedEvaluation: false,
      generate: true, scoreLabels: true, embeddings: true, maxTopTokens: null,
    },
    tokenize: unsupported, detokenize: unsupported, tokenText: unsupported,
    nextTokenDistribution: unsupported, nextTokenDistributions: unsupported, topNextTokens: unsupported,
    async scoreLabels(prompt, labels) {
      const failed = check(prompt);
      if (failed) return failed;
      return labels.map((label, i) => prompt.split(`Label: ${label.trim()}\n`).length - 1 - i * 1e-3);
    },
    async generate(prompt, options) {
      const failed = check(String(prompt));
      if (failed) return failed;
      const outputs = [...String(prompt).matchAll(/^Output: (.+)$/gm)].map((m) => m[1]);
      if (outputs.length > 0) return { text: outputs.join(' '), tokens: [], finishReason: 'stop' };
      const r = options.random;
      const pick = () => PUBLIC_WORDS[options.temperature && r ? Math.floor(r.nextFloat() * PUBLIC_WORDS.length) : 0];
      return { text: `${pick()} ${pick()} ${pick()}`, tokens: [], finishReason: 'stop' };
    },
    async embed(texts) {
      return texts.map(unitVector);
    },
    close: async () => undefined,
  };
}
