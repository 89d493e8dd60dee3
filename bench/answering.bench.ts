/**
 * Seconds per privately answered query for each aggregation (vote, embedding, keyword-EM,
 * keyword-PTR), with the reference learner and with a generated GGUF in llama.cpp, split into
 * model time (every LanguageModel call: teachers, zero-shot candidates, embeddings, the final
 * keyword prompt) and mechanism time (sampling, prompts, aggregation, noise: the rest). On the
 * GGUF, teachers with KV reuse (LanguageModel.generateEach / scoreLabelsEach) are measured beside
 * each teacher alone, query by query in the same run, with their ratio.
 * Ensemble M = 10, 2 shots per teacher, q = 1 over a pool of SpamAssassin e-mails (the
 * learner never saw them); generation answers the first words of an e-mail from the e-mail.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { answerQuery, type AnswerSettings } from '../core/icl/answering/answerQuery';
import type { AnswerMethod } from '../core/icl/answering/answerEvents';
import { inMemoryPool, type PoolRecord } from '../core/icl/privatePool';
import { defaultTemplate } from '../core/icl/prompts';
import { makeTinyLlamaGguf } from '../core/model/gguf/tinyLlama';
import type { LanguageModel } from '../core/model/languageModel';
import { cryptoRandom } from '../core/random/cryptoRandom';
import { callMethod } from '../electron/services/api';
import { ServiceContext } from '../electron/services/context';
import { ensureDataDir } from '../electron/services/dataDir';
import { getModelService } from '../electron/services/model/modelHandlers';
import { loadReferenceLearner } from '../electron/services/model/referenceResources';
import { isBackgroundEmail, loadSpamAssassin } from '../scripts/model/spamAssassin';
import { median } from './stats';

const SHAPE = { ensemble: 10, shots: 2, candidates: 10, keywords: 5, maxTokens: 24 };
const QUERIES = 5;
const CONTEXT = 4096;
const NOISE: Record<AnswerMethod, number> = { vote: 2, embedding: 2, keyword: 1, ptr: 1, sga: 1 };

/** The same model, with the time spent in each of its async calls added to `timing.modelMs`. */
export function timedModel(model: LanguageModel, timing: { modelMs: number }): LanguageModel {
  return new Proxy(model, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        const start = performance.now();
        try {
          return await value.apply(target, args);
        } finally {
          timing.modelMs += performance.now() - start;
        }
      };
    },
  });
}

/** The model without its batched teacher calls: each teacher alone (the path before KV reuse, and every backend without one). */
function eachTeacherAlone(model: LanguageModel): LanguageModel {
  return new Proxy(model, { get: (target, key) => (key === 'generateEach' || key === 'scoreLabelsEach' ? undefined : Reflect.get(target, key)) });
}

interface Variant {
  name: string;
  model: LanguageModel;
}

/** Each aggregation's seconds per query for every variant, the variants interleaved query by query (a loaded machine slows them alike). */
async function measure(variants: readonly Variant[], data: { mail: PoolRecord[]; generation: PoolRecord[]; queries: string[] }) {
  const results: Record<string, object> = {};
  for (const method of ['vote', 'embedding', 'keyword', 'ptr'] as const) {
    const classification = method === 'vote';
    const pool = inMemoryPool(classification ? data.mail : data.generation);
    const runs = variants.map((v) => {
      const timing = { modelMs: 0 };
      const settings: AnswerSettings = {
        model: timedModel(v.model, timing), pool, template: { ...defaultTemplate(classification ? 'Classify each text as one of: spam, ham.' : 'Answer each text as in the examples.'), maxExampleChars: 300 },
        task: classification ? { kind: 'classification', labels: ['spam', 'ham'] } : { kind: 'generation' }, method, ensemble: SHAPE.ensemble, shots: SHAPE.shots,
        q: Math.min(1, (SHAPE.ensemble * SHAPE.shots) / pool.units), noise: NOISE[method], ptrDelta: 1e-7, keywords: SHAPE.keywords, candidates: SHAPE.candidates,
        candidateTemperature: 1, maxTokens: SHAPE.maxTokens, random: cryptoRandom,
      };
      return { name: v.name, settings, timing, seconds: [] as number[], failures: 0 };
    });
    for (const [i, query] of data.queries.entries()) {
      for (const run of i % 2 ? [...runs].reverse() : runs) {
        const start = performance.now();
        run.failures += (await answerQuery(run.settings, query)).failures;
        run.seconds.push((performance.now() - start) / 1000);
      }
    }
    const summaries = Object.fromEntries(
      runs.map(({ name, seconds, timing, failures }) => {
        const totalMs = seconds.reduce((a, b) => a + b, 0) * 1000;
        const summary = {
          medianSecondsPerQuery: +median(seconds).toFixed(3),
          runsSeconds: seconds.map((x) => +x.toFixed(3)),
          msPerQuery: { model: +(timing.modelMs / seconds.length).toFixed(1), mechanism: +((totalMs - timing.modelMs) / seconds.length).toFixed(2) },
          failedTeachers: failures,
        };
        return [name, summary];
      }),
    );
    const [first, second] = runs;
    results[method] = second ? { ...summaries, secondsRatio: { [`${second.name}/${first.name}`]: +(median(second.seconds) / median(first.seconds)).toFixed(2) } } : summaries[first.name];
  }
  return results;
}

async function withTinyGguf<T>(work: (model: LanguageModel) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'veil-bench-'));
  const ctx = new ServiceContext(ensureDataDir(join(dir, 'data')), 'cli');
  try {
    const path = join(dir, 'tiny.gguf');
    writeFileSync(path, makeTinyLlamaGguf({ seed: 1, contextLength: CONTEXT }));
    // 4,096 tokens: the longest teacher prompts (~2,500 tokens) fit, so each teacher alone answers too (a longer prompt fails there).
    const { jobId } = await callMethod(ctx, 'model.loadGguf', { path, threads: 1, sequences: SHAPE.ensemble, contextSize: CONTEXT });
    const job = await ctx.jobs.wait(jobId);
    if (job.status !== 'succeeded') throw new Error(`loading the GGUF failed: ${job.error}`);
    return await work(await (await getModelService(ctx)).current());
  } finally {
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function run(): Promise<object> {
  const emails = loadSpamAssassin(800).filter((e) => !isBackgroundEmail(e));
  const mail = emails.slice(0, 400).map((e) => ({ text: e.text, label: e.label }));
  const generation = emails.slice(0, 400).map((e) => ({ text: e.text, output: e.text.split(/\s+/).slice(0, 12).join(' ') }));
  const queries = emails.slice(400, 400 + QUERIES).map((e) => e.text.slice(0, 300));
  const data = { mail, generation, queries };
  return {
    setup: { ...SHAPE, queriesPerAggregation: QUERIES, poolSize: mail.length, note: 'model = time inside LanguageModel calls; mechanism = the rest (sampling, prompts, aggregation, noise)' },
    reference: await measure([{ name: 'reference', model: await loadReferenceLearner() }], data),
    // Teachers with KV reuse (one sequence each, prefilled once, decoded together) against each teacher alone, same run.
    llamaTinyGguf: { threads: 1, ...(await withTinyGguf((model) => measure([{ name: 'kvReuse', model }, { name: 'eachTeacherAlone', model: eachTeacherAlone(model) }], data))) },
  };
}
