/**
 * Seconds per synthetic demonstration (M = 10 teachers, K = 100 candidates, T_max = 64)
 * for DP few-shot generation (Gaussian) and AdaDPSyn, with the reference learner and with
 * a generated GGUF in llama.cpp, and the per-token split between model evaluation and the
 * mechanism. Pools: SpamAssassin e-mails (not the learner's background corpus), N = 2
 * per teacher. Noise is fixed (σ = 1): the cost does not depend on it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { adaDpSynAggregator, defaultAdaDpSynParams } from '../core/icl/adaDpSyn';
import { generateDemonstration } from '../core/icl/demonstration';
import { tangAggregator } from '../core/icl/dpFewShot';
import { inMemoryPool } from '../core/icl/privatePool';
import { defaultTemplate } from '../core/icl/prompts';
import type { TokenAggregator } from '../core/icl/tokenAggregator';
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

const SHAPE = { teachers: 10, perTeacher: 2, topK: 100, maxTokens: 64 };
const DEMONSTRATIONS = 3;
const template = { ...defaultTemplate('Write an e-mail of the given class.'), maxExampleChars: 300 };

const methods: Record<string, () => TokenAggregator> = {
  'dp-few-shot (gaussian)': () => tangAggregator({ kind: 'gaussian', sigma: 1 }),
  adadpsyn: () => adaDpSynAggregator(defaultAdaDpSynParams(1)),
};

async function measure(model: LanguageModel, spam: string[]): Promise<Record<string, object>> {
  const results: Record<string, object> = {};
  for (const [name, make] of Object.entries(methods)) {
    const seconds: number[] = [];
    const steps: number[] = [];
    const timing = { modelMs: 0, mechanismMs: 0 };
    for (let i = 0; i < DEMONSTRATIONS; i++) {
      const start = performance.now();
      const demo = await generateDemonstration({
        model, template, pool: inMemoryPool(spam), label: 'spam', shape: SHAPE, aggregator: make(), random: cryptoRandom, timing,
      });
      seconds.push((performance.now() - start) / 1000);
      steps.push(demo.steps);
    }
    const totalSteps = steps.reduce((a, b) => a + b, 0);
    results[name] = {
      medianSecondsPerDemonstration: +median(seconds).toFixed(3),
      runsSeconds: seconds.map((s) => +s.toFixed(3)),
      stepsPerDemonstration: steps,
      msPerStep: { model: +(timing.modelMs / totalSteps).toFixed(2), mechanism: +(timing.mechanismMs / totalSteps).toFixed(3) },
      secondsPerDemonstrationAtTmax: +(((timing.modelMs + timing.mechanismMs) / totalSteps) * SHAPE.maxTokens / 1000).toFixed(3),
    };
  }
  return results;
}

async function withTinyGguf<T>(work: (model: LanguageModel, threads: number) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'veil-bench-'));
  const ctx = new ServiceContext(ensureDataDir(join(dir, 'data')), 'cli');
  try {
    const path = join(dir, 'tiny.gguf');
    writeFileSync(path, makeTinyLlamaGguf({ seed: 1 }));
    const { jobId } = await callMethod(ctx, 'model.loadGguf', { path, threads: 1, sequences: SHAPE.teachers, contextSize: 2048 });
    const job = await ctx.jobs.wait(jobId);
    if (job.status !== 'succeeded') throw new Error(`loading the GGUF failed: ${job.error}`);
    return await work(await (await getModelService(ctx)).current(), 1);
  } finally {
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function run(): Promise<object> {
  const spam = loadSpamAssassin(1200).filter((e) => !isBackgroundEmail(e) && e.label === 'spam').map((e) => e.text);
  return {
    setup: { ...SHAPE, demonstrationsPerMethod: DEMONSTRATIONS, poolSize: spam.length, target: '≤ 5 s per demonstration (reference learner)' },
    reference: await measure(await loadReferenceLearner(), spam),
    llamaTinyGguf: await withTinyGguf(async (model, threads) => ({ threads, ...(await measure(model, spam)) })),
  };
}
