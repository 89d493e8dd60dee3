/**
 * Part 1 — realistic model (issue 18, item 2): a random-weight llama GGUF of ≈ 0.5 B
 * parameters (Q8_0), generated once under bench/models/ (gitignored), loaded in llama.cpp
 * with 2 threads: load time, prefill tokens/s, batched decode tokens/s of M = 10 continuing
 * teachers, and seconds per synthetic demonstration (T = 64) in both sampling modes, from
 * the measured step costs (a per-token step evaluates M fresh teacher prompts, each alone;
 * a per-demonstration step decodes one token per teacher in one batch, after one prefill of
 * every teacher per demonstration; both add one public-prompt token), and their ratio.
 *
 * Part 2 — cost of one DP synthesis step (Tang et al.): M = 10 teacher prompts of 300 tokens each,
 * next-token distributions restricted to 100 public candidate tokens — batched (one call,
 * M parallel sequences) vs sequential (M calls). "cold": prompts not seen before (full
 * prompt evaluation); "next token": every prompt grew by one token since the last step
 * (the KV cache of each sequence is reused). Backends: the reference learner, and
 * generated llama GGUFs in llama.cpp (model host process) at 1 and 2 threads.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeTinyLlamaGguf, type TinyLlamaOptions } from '../core/model/gguf/tinyLlama';
import type { LanguageModel } from '../core/model/languageModel';
import { callMethod } from '../electron/services/api';
import { ServiceContext } from '../electron/services/context';
import { ensureDataDir } from '../electron/services/dataDir';
import { getModelService } from '../electron/services/model/modelHandlers';
import { loadReferenceLearner } from '../electron/services/model/referenceResources';
import { isBackgroundEmail, loadSpamAssassin } from '../scripts/model/spamAssassin';
import { timeRuns } from './stats';

const M = 10;
const CANDIDATES = 100;

/** The size of one measured step and how often each part is repeated. */
export interface StepSetup {
  teachers: number;
  promptTokens: number;
  coldRepeats: number;
  stepRepeats: number;
}

const STEP: StepSetup = { teachers: M, promptTokens: 300, coldRepeats: 3, stepRepeats: 5 };

/** `teachers` teacher-style prompts (instruction, a demonstration, a partial e-mail) cut to `promptTokens` tokens. */
async function teacherPrompts(model: LanguageModel, { teachers, promptTokens }: StepSetup): Promise<number[][]> {
  const emails = loadSpamAssassin(1200).filter((e) => !isBackgroundEmail(e));
  const prompts: number[][] = [];
  for (let i = 0; prompts.length < teachers; i++) {
    const [a, b] = [emails[(i * 37) % emails.length], emails[(i * 53 + 11) % emails.length]];
    const text = `Classify each e-mail as spam or ham.\n\nEmail: ${a.text}\nLabel: ${a.label}\n\nEmail: ${b.text}\nLabel: ${b.label}\n\nEmail: ${a.text}`;
    const tokens = await model.tokenize(text);
    if (tokens.length >= promptTokens) prompts.push(tokens.slice(0, promptTokens));
  }
  return prompts;
}

const ms = (s: { median: number; runs: number[] }) => ({ medianMs: +(s.median * 1000).toFixed(2), runsMs: s.runs.map((r) => +(r * 1000).toFixed(2)) });

/** Times one synthesis step on `model`: batched vs sequential, cold and next-token (exported for its smoke test). */
export async function measureStep(model: LanguageModel, candidates: number[], setup: StepSetup = STEP) {
  const { coldRepeats, stepRepeats } = setup;
  const base = await teacherPrompts(model, setup);
  let salt = 0;
  // A fresh first token per run defeats KV-cache reuse: every run evaluates every prompt token.
  const fresh = () => base.map((p) => [candidates[salt++ % candidates.length], ...p.slice(1)]);
  const options = { restrictTo: candidates };
  await model.nextTokenDistributions(fresh(), options); // warm-up (JIT, allocations)
  const batchedCold = await timeRuns(coldRepeats, () => model.nextTokenDistributions(fresh(), options));
  const sequentialCold = await timeRuns(coldRepeats, async () => {
    for (const p of fresh()) await model.nextTokenDistribution(p, options);
  });
  const grow = (prompts: number[][]) => prompts.map((p, i) => [...p, candidates[(p.length + i) % candidates.length]]);
  let current = fresh();
  await model.nextTokenDistributions(current, options);
  const batchedStep = await timeRuns(stepRepeats, () => model.nextTokenDistributions((current = grow(current)), options));
  const sequentialStep = await timeRuns(stepRepeats, async () => {
    current = grow(current);
    for (const p of current) await model.nextTokenDistribution(p, options);
  });
  return {
    coldBatched: ms(batchedCold),
    coldSequential: ms(sequentialCold),
    nextTokenBatched: ms(batchedStep),
    nextTokenSequential: ms(sequentialStep),
    coldSpeedup: +(sequentialCold.median / batchedCold.median).toFixed(2),
    nextTokenSpeedup: +(sequentialStep.median / batchedStep.median).toFixed(2),
  };
}

async function llamaBench(name: string, options: TinyLlamaOptions, threads: number[]): Promise<object[]> {
  const dir = mkdtempSync(join(tmpdir(), 'veil-bench-'));
  const ctx = new ServiceContext(ensureDataDir(join(dir, 'data')), 'cli');
  const results: object[] = [];
  try {
    const path = join(dir, `${name}.gguf`);
    writeFileSync(path, makeTinyLlamaGguf(options));
    for (const t of threads) {
      const { jobId } = await callMethod(ctx, 'model.loadGguf', { path, threads: t, sequences: M, contextSize: 512 });
      const job = await ctx.jobs.wait(jobId);
      if (job.status !== 'succeeded') throw new Error(`loading ${name} failed: ${job.error}`);
      const status = await callMethod(ctx, 'model.status', {});
      const model = await (await getModelService(ctx)).current();
      const vocabulary = model.info.vocabularySize!;
      const candidates = Array.from({ length: CANDIDATES }, (_, i) => 259 + ((i * 7) % (vocabulary - 259)));
      results.push({
        model: name,
        parameters: status.gguf?.metadata.parameterCount,
        quantisation: status.gguf?.metadata.quantisation,
        threads: status.hardware.modelHost?.threads,
        sequences: status.gguf?.sequences,
        loadSeconds: status.gguf?.loadSeconds,
        ...(await measureStep(model, candidates)),
      });
    }
  } finally {
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return results;
}

/** ≈ 0.5 B parameters: 20 blocks of d = 1536, FFN 4096, 12 heads (4 KV heads). */
const REALISTIC: TinyLlamaOptions = { seed: 11, embeddingLength: 1536, feedForwardLength: 4096, blockCount: 20, headCount: 12, headCountKv: 4, weights: 'Q8_0', contextLength: 4096, name: 'veil-random-llama-0.5b' };
const T = 64;

export interface SamplingSetup {
  teachers: number;
  promptTokens: number;
  candidates: number[];
  /** Measured repetitions of a per-token step and of a per-demonstration (decode) step. */
  perTokenSteps: number;
  decodeSteps: number;
}

/**
 * Step costs of both sampling modes on `model` (a loaded llama.cpp model with ≥ M
 * sequences), and seconds per demonstration of T steps derived from them.
 */
export async function measureSampling(model: LanguageModel, setup: SamplingSetup) {
  const base = await teacherPrompts(model, { teachers: setup.teachers, promptTokens: setup.promptTokens, coldRepeats: 0, stepRepeats: 0 });
  const options = { restrictTo: setup.candidates };
  const publicPrompt = base[0].slice(0, 16);
  let salt = 0;
  const fresh = () => base.map((p) => [setup.candidates[salt++ % setup.candidates.length], ...p.slice(1)]);
  await model.nextTokenDistributions(fresh().slice(0, 1), options); // warm-up
  const publicStep = async (grown: number) => model.topNextTokens([...publicPrompt, ...setup.candidates.slice(0, grown)], setup.candidates.length);
  const perToken = await timeRuns(setup.perTokenSteps, async () => {
    await publicStep(1);
    await model.nextTokenDistributions(fresh(), options);
  });
  let current = fresh();
  const prefill = await timeRuns(1, () => model.nextTokenDistributions(current, options));
  let step = 0;
  const decode = await timeRuns(setup.decodeSteps, async () => {
    step++;
    await publicStep(1 + step);
    current = current.map((p) => [...p, setup.candidates[step % setup.candidates.length]]);
    await model.nextTokenDistributions(current, { ...options, continuing: true });
  });
  const perTokenDemo = perToken.median * T;
  const perDemonstrationDemo = prefill.median + decode.median * (T - 1);
  return {
    teachers: setup.teachers,
    promptTokens: setup.promptTokens,
    prefillTokensPerSecond: +((setup.teachers * setup.promptTokens) / perToken.median).toFixed(1),
    batchedDecodeTokensPerSecond: +(setup.teachers / decode.median).toFixed(1),
    perTokenStep: ms(perToken),
    perDemonstrationFirstStep: ms(prefill),
    perDemonstrationStep: ms(decode),
    secondsPerDemonstration: { T, perToken: +perTokenDemo.toFixed(2), perDemonstration: +perDemonstrationDemo.toFixed(2) },
    speedup: { value: +(perTokenDemo / perDemonstrationDemo).toFixed(1), target: '≥ 10× (per demonstration vs per token)' },
  };
}

/** The generated ≈ 0.5 B model (kept between runs: bench/models/ is gitignored). */
function realisticGguf(): { path: string; generateSeconds: number | null } {
  const dir = join(dirname(fileURLToPath(import.meta.url)), 'models');
  const path = join(dir, 'random-llama-0.5b-q8_0.gguf');
  if (existsSync(path)) return { path, generateSeconds: null };
  const started = performance.now();
  mkdirSync(dir, { recursive: true });
  writeFileSync(path, makeTinyLlamaGguf(REALISTIC));
  return { path, generateSeconds: +((performance.now() - started) / 1000).toFixed(1) };
}

export async function realisticBench(): Promise<object> {
  const { path, generateSeconds } = realisticGguf();
  const dir = mkdtempSync(join(tmpdir(), 'veil-bench-'));
  const ctx = new ServiceContext(ensureDataDir(join(dir, 'data')), 'cli');
  try {
    const { jobId } = await callMethod(ctx, 'model.loadGguf', { path, threads: 2, sequences: M, contextSize: 512 });
    const job = await ctx.jobs.wait(jobId);
    if (job.status !== 'succeeded') throw new Error(`loading the 0.5 B model failed: ${job.error}`);
    const status = await callMethod(ctx, 'model.status', {});
    const model = await (await getModelService(ctx)).current();
    const candidates = Array.from({ length: CANDIDATES }, (_, i) => 259 + ((i * 7) % (model.info.vocabularySize! - 259)));
    return {
      parameters: status.gguf?.metadata.parameterCount,
      quantisation: status.gguf?.metadata.quantisation,
      fileBytes: statSync(path).size,
      generateSeconds,
      threads: status.hardware.modelHost?.threads,
      loadSeconds: status.gguf?.loadSeconds,
      ...(await measureSampling(model, { teachers: M, promptTokens: 200, candidates, perTokenSteps: 1, decodeSteps: 3 })),
    };
  } finally {
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function run(): Promise<object> {
  const reference = await loadReferenceLearner();
  const referenceCandidates = Array.from({ length: CANDIDATES }, (_, i) => 257 + i * 13);
  return {
    realisticModel: await realisticBench(),
    setup: { ...STEP, candidates: CANDIDATES, referenceRepeats: 21 },
    reference: {
      threads: 1,
      note: 'pure TypeScript on the main thread; its batched call is a loop',
      ...(await measureStep(reference, referenceCandidates, { ...STEP, coldRepeats: 21, stepRepeats: 21 })),
    },
    llama: [
      ...(await llamaBench('tiny', { seed: 1 }, [1, 2])),
      ...(await llamaBench('small', { seed: 2, embeddingLength: 512, feedForwardLength: 1536, blockCount: 8, headCount: 8, headCountKv: 4, weights: 'F16' }, [1, 2])),
    ],
  };
}
