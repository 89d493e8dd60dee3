/**
 * Seconds per privately answered query for each aggregation (vote, embedding, keyword-EM,
 * keyword-PTR), with the reference learner and with a generated GGUF in llama.cpp, split into
 * model time (every LanguageModel call: teachers, zero-shot candidates, embeddings, the final
 * keyword prompt) and mechanism time (sampling, prompts, aggregation, noise: the rest).
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
const QUERIES = 3;
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

async function measure(model: LanguageModel, data: { mail: PoolRecord[]; generation: PoolRecord[]; queries: string[] }) {
  const results: Record<string, object> = {};
  for (const method of ['vote', 'embedding', 'keyword', 'ptr'] as const) {
    const timing = { modelMs: 0 };
    const classification = method === 'vote';
    const pool = inMemoryPool(classification ? data.mail : data.generation);
    const settings: AnswerSettings = {
      model: timedModel(model, timing), pool, template: { ...defaultTemplate(classification ? 'Classify each text as one of: spam, ham.' : 'Answer each text as in the examples.'), maxExampleChars: 300 },
      task: classification ? { kind: 'classification', labels: ['spam', 'ham'] } : { kind: 'generation' }, method, ensemble: SHAPE.ensemble, shots: SHAPE.shots,
      q: Math.min(1, (SHAPE.ensemble * SHAPE.shots) / pool.units), noise: NOISE[method], ptrDelta: 1e-7, keywords: SHAPE.keywords, candidates: SHAPE.candidates,
      candidateTemperature: 1, maxTokens: SHAPE.maxTokens, random: cryptoRandom,
    };
    const seconds: number[] = [];
    for (const query of data.queries) {
      const start = performance.now();
      await answerQuery(settings, query);
      seconds.push((performance.now() - start) / 1000);
    }
    const totalMs = seconds.reduce((a, b) => a + b, 0) * 1000;
    results[method] = {
      medianSecondsPerQuery: +median(seconds).toFixed(3),
      runsSeconds: seconds.map((s) => +s.toFixed(3)),
      msPerQuery: { model: +(timing.modelMs / seconds.length).toFixed(1), mechanism: +((totalMs - timing.modelMs) / seconds.length).toFixed(2) },
    };
  }
  return results;
}

async function withTinyGguf<T>(work: (model: LanguageModel) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'veil-bench-'));
  const ctx = new ServiceContext(ensureDataDir(join(dir, 'data')), 'cli');
  try {
    const path = join(dir, 'tiny.gguf');
    writeFileSync(path, makeTinyLlamaGguf({ seed: 1 }));
    const { jobId } = await callMethod(ctx, 'model.loadGguf', { path, threads: 1, sequences: SHAPE.ensemble, contextSize: 2048 });
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
    reference: await measure(await loadReferenceLearner(), data),
    llamaTinyGguf: { threads: 1, ...(await withTinyGguf((model) => measure(model, data))) },
  };
}
