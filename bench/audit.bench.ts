/**
 * Seconds per audited candidate for each membership-inference attack (label, repeat,
 * inquiry) against a plain 4-shot prompt of SpamAssassin e-mails (not the learner's
 * background corpus), with the reference learner and with a generated GGUF in llama.cpp.
 * Also the label attack on private answering by vote (M = 10 teachers, 2 shots, reference
 * learner), and the bootstrap interval (1000 replicates) of 200 + 200 scores.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { answeringTarget } from '../core/audit/answeringTarget';
import { ATTACKS, attackScores } from '../core/audit/attacks';
import { bootstrapAurocInterval } from '../core/audit/bootstrap';
import { promptTarget } from '../core/audit/target';
import { inMemoryPool } from '../core/icl/privatePool';
import { defaultTemplate, renderFewShotPrompt } from '../core/icl/prompts';
import { makeTinyLlamaGguf } from '../core/model/gguf/tinyLlama';
import type { LanguageModel } from '../core/model/languageModel';
import { cryptoRandom } from '../core/random/cryptoRandom';
import { seededRandom } from '../core/random/seededRandom';
import { callMethod } from '../electron/services/api';
import { ServiceContext } from '../electron/services/context';
import { ensureDataDir } from '../electron/services/dataDir';
import { getModelService } from '../electron/services/model/modelHandlers';
import { loadReferenceLearner } from '../electron/services/model/referenceResources';
import { isBackgroundEmail, loadSpamAssassin } from '../scripts/model/spamAssassin';
import { median } from './stats';

const CANDIDATES = 10;
const template = { ...defaultTemplate('Classify each text as one of: spam, ham.'), maxExampleChars: 300 };

async function measure(model: LanguageModel, emails: { text: string; label: string }[]): Promise<Record<string, object>> {
  const prompt = renderFewShotPrompt(template, emails.slice(0, 4).map((e) => ({ text: e.text.slice(0, 300), label: e.label })));
  const target = promptTarget(model, template, prompt);
  const candidates = emails.slice(4, 4 + CANDIDATES);
  const results: Record<string, object> = {};
  for (const attack of ATTACKS) {
    const seconds: number[] = [];
    for (const c of candidates) {
      const start = performance.now();
      await attackScores(attack, { text: c.text.slice(0, 300), label: c.label }, { target, model, labels: ['spam', 'ham'] });
      seconds.push((performance.now() - start) / 1000);
    }
    results[attack] = { medianSecondsPerCandidate: +median(seconds).toFixed(4), candidates: seconds.length };
  }
  return results;
}

/** Label attack on private answering by vote: M = 10 teachers of 2 shots over the other e-mails, σ = 5. */
async function measureAnswering(model: LanguageModel, emails: { text: string; label: string }[]): Promise<object> {
  const pool = inMemoryPool(emails.slice(CANDIDATES).map((e) => ({ text: e.text.slice(0, 300), label: e.label })));
  const target = answeringTarget({
    model, pool, template, task: { kind: 'classification', labels: ['spam', 'ham'] }, method: 'vote', ensemble: 10, shots: 2,
    q: Math.min(1, 20 / pool.units), noise: 5, ptrDelta: 0, keywords: 1, candidates: 1, candidateTemperature: 1, maxTokens: 8, random: cryptoRandom,
  });
  const seconds: number[] = [];
  for (const c of emails.slice(0, CANDIDATES)) {
    const start = performance.now();
    await attackScores('label', { text: c.text.slice(0, 300), label: c.label }, { target, model, labels: ['spam', 'ham'] });
    seconds.push((performance.now() - start) / 1000);
  }
  return { medianSecondsPerCandidate: +median(seconds).toFixed(4), candidates: seconds.length, ensemble: 10, shots: 2 };
}

async function withTinyGguf<T>(work: (model: LanguageModel) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'veil-bench-audit-'));
  const ctx = new ServiceContext(ensureDataDir(join(dir, 'data')), 'cli');
  try {
    const path = join(dir, 'tiny.gguf');
    writeFileSync(path, makeTinyLlamaGguf({ seed: 1 }));
    const { jobId } = await callMethod(ctx, 'model.loadGguf', { path, threads: 1, contextSize: 2048 });
    const job = await ctx.jobs.wait(jobId);
    if (job.status !== 'succeeded') throw new Error(`loading the GGUF failed: ${job.error}`);
    return await work(await (await getModelService(ctx)).current());
  } finally {
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function bootstrapSeconds(): number {
  const random = seededRandom('bench.audit');
  const scores = Array.from({ length: 400 }, (_, i) => ({ score: random.nextFloat() + (i < 200 ? 0.2 : 0), member: i < 200 }));
  const start = performance.now();
  bootstrapAurocInterval(scores, random, 1000);
  return +((performance.now() - start) / 1000).toFixed(3);
}

export async function run(): Promise<object> {
  const emails = loadSpamAssassin(400).filter((e) => !isBackgroundEmail(e)).sort((a, b) => (a.checksum < b.checksum ? -1 : 1)).slice(0, 4 + CANDIDATES);
  return {
    setup: { shots: 4, candidatesPerAttack: CANDIDATES, repeatTokens: 48, maxChars: 300 },
    reference: await measure(await loadReferenceLearner(), emails),
    referenceAnsweringVoteLabel: await measureAnswering(await loadReferenceLearner(), loadSpamAssassin(400).filter((e) => !isBackgroundEmail(e)).slice(0, 100)),
    llamaTinyGguf: await withTinyGguf((model) => measure(model, emails)),
    bootstrap1000ReplicatesOf400Seconds: bootstrapSeconds(),
  };
}
