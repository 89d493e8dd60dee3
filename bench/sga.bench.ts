/**
 * Seconds per query of semantic group aggregation (issue 15) beside keyword aggregation, with
 * and without public data, on the reference learner: model time (every LanguageModel call:
 * both ensembles, embeddings, candidates, selection, final prompts) and mechanism time (the
 * rest: sampling, DPM, noise). Ensemble M = 10, 2 shots, q = M·shots/N; a generation task of
 * SpamAssassin e-mails (answer: the e-mail's first words), public examples from a disjoint slice.
 */
import { answerQuery, type AnswerSettings } from '../core/icl/answering/answerQuery';
import { DEFAULT_SGA_SETTINGS } from '../core/icl/answering/sga/semanticGroups';
import { inMemoryPool } from '../core/icl/privatePool';
import { defaultTemplate } from '../core/icl/prompts';
import { cryptoRandom } from '../core/random/cryptoRandom';
import { loadReferenceLearner } from '../electron/services/model/referenceResources';
import { isBackgroundEmail, loadSpamAssassin } from '../scripts/model/spamAssassin';
import { timedModel } from './answering.bench';
import { median } from './stats';
import { tableRow } from './table';

const SHAPE = { ensemble: 10, shots: 2, candidates: 10, keywords: 5, maxTokens: 24 };
const QUERIES = 3;

const CONFIGS = {
  sgaModel: { method: 'sga', noise: 0.5, selection: 'model', publicData: true },
  sgaNearest: { method: 'sga', noise: 0.5, selection: 'nearest', publicData: true },
  keywordPublic: { method: 'keyword', noise: 1, selection: 'nearest', publicData: true },
  keyword: { method: 'keyword', noise: 1, selection: 'nearest', publicData: false },
} as const;

export async function run(): Promise<object> {
  const emails = loadSpamAssassin(800).filter((e) => !isBackgroundEmail(e));
  const asExample = (e: { text: string }) => ({ text: e.text, output: e.text.split(/\s+/).slice(0, 12).join(' ') });
  const pool = inMemoryPool(emails.slice(0, 400).map(asExample));
  const publicExamples = emails.slice(400, 450).map(asExample);
  const queries = emails.slice(450, 450 + QUERIES).map((e) => e.text.slice(0, 300));
  const model = await loadReferenceLearner();
  const results: Record<string, object> = {};
  for (const [name, c] of Object.entries(CONFIGS)) {
    const timing = { modelMs: 0 };
    const settings: AnswerSettings = {
      model: timedModel(model, timing), pool, template: { ...defaultTemplate('Answer each text as in the examples.'), maxExampleChars: 300 }, task: { kind: 'generation' },
      method: c.method, ensemble: SHAPE.ensemble, shots: SHAPE.shots, q: Math.min(1, (SHAPE.ensemble * SHAPE.shots) / pool.units), noise: c.noise, ptrDelta: 0,
      keywords: SHAPE.keywords, candidates: SHAPE.candidates, candidateTemperature: 1, maxTokens: SHAPE.maxTokens, random: cryptoRandom,
      ...(c.publicData ? { publicExamples } : {}),
      ...(c.method === 'sga' ? { sga: { dpm: DEFAULT_SGA_SETTINGS, candidates: 3, selection: c.selection } } : {}),
    };
    const seconds: number[] = [];
    for (const query of queries) {
      const start = performance.now();
      await answerQuery(settings, query);
      seconds.push((performance.now() - start) / 1000);
    }
    const totalMs = seconds.reduce((a, b) => a + b, 0) * 1000;
    results[name] = {
      medianSecondsPerQuery: +median(seconds).toFixed(3),
      runsSeconds: seconds.map((s) => +s.toFixed(3)),
      msPerQuery: { model: +(timing.modelMs / seconds.length).toFixed(1), mechanism: +((totalMs - timing.modelMs) / seconds.length).toFixed(2) },
    };
  }
  const s = (name: string) => (results[name] as { medianSecondsPerQuery: number }).medianSecondsPerQuery;
  const keyword = { what: 'keyword aggregation, no public data', seconds: s('keyword') };
  return {
    setup: { ...SHAPE, queries: QUERIES, poolSize: pool.units, publicExamples: publicExamples.length, sga: { ...DEFAULT_SGA_SETTINGS, candidates: 3 }, model: 'reference learner' },
    reference: results,
    table: [tableRow('SGA query (model selection), reference learner', s('sgaModel'), null, keyword), tableRow('keyword query with public data, reference learner', s('keywordPublic'), null, keyword)],
  };
}
