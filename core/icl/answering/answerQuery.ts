/**
 * One privately answered query (Wu, Panda, Wang & Mittal, DP-ICL, ICLR 2024): a fresh
 * Poisson(q) sample of the private split from the CSPRNG, each sampled unit assigned uniformly
 * to one of M teachers (PrivatePool contract), each teacher prompted with at most a fixed public
 * number of its records, then one noisy aggregate of their answers (aggregators.ts).
 *
 * Adding or removing one unit changes at most one teacher's prompt, hence one answer. A teacher
 * with no records, or whose backend call fails, gives the fixed public "no answer" (null) — a
 * failure never aborts the query nor changes anything but that teacher's slot; failures are only
 * counted, for the batch's aggregate report. Public computations (zero-shot candidates, the
 * final keyword prompt) may abort: they do not touch private data.
 */
import type { LanguageModel } from '../../model/languageModel';
import type { RandomSource } from '../../random/randomSource';
import { requirePrivateRandom } from '../../random/privatePathRandom';
import type { PoolRecord, PrivatePool } from '../privatePool';
import { classificationQuery, generationQuery, renderFewShotPrompt, type Demonstration, type PromptTemplate } from '../prompts';
import { teacherCapacity } from '../teacherEnsemble';
import { aggregateEmbedding, aggregateKeywordsEm, aggregateKeywordsPtr, aggregateVote } from './aggregators';
import type { AnswerMethod } from './answerEvents';
import { keywordSet, keywordUniverse } from './keywords';
import { generationCall, labelScoreCall, teacherResults, type TeacherCall } from './teacherCalls';
import { publicEnsembleAnswers } from './publicEnsemble';
import { answerSgaQuery, type SgaOptions } from './sgaQuery';
import type { PrivacyEvent } from '../../accounting/events';

export type AnswerTask = { kind: 'classification'; labels: readonly string[] } | { kind: 'generation' };

export interface AnswerSettings {
  model: LanguageModel;
  /** The private split, seen only through fresh Poisson samples. */
  pool: PrivatePool;
  template: PromptTemplate;
  task: AnswerTask;
  method: AnswerMethod;
  ensemble: number;
  shots: number;
  /** Poisson rate (from a noisy or public size, never the exact private count). */
  q: number;
  /** σ (vote, embedding) or ε per query (keyword, ptr); null = the non-private ensemble (evaluation only). */
  noise: number | null;
  /** PTR's δ₀ per query. */
  ptrDelta: number;
  /** Keywords released (keyword-EM) or the largest k (PTR). */
  keywords: number;
  /** Public zero-shot candidates (embedding and keyword methods). */
  candidates: number;
  candidateTemperature: number;
  /** Public examples of the public ensemble (publicEnsemble.ts): SGA's candidates; keyword methods add its answers to their universe and final prompt. */
  publicExamples?: readonly Demonstration[];
  /** sga: DPM's settings, candidates k and the selection (sgaQuery.ts). */
  sga?: SgaOptions;
  maxTokens: number;
  random: RandomSource;
  signal?: AbortSignal;
  onTeacher?: (done: number, total: number) => void;
}

export interface AnswerResult {
  answer: string;
  /** vote: the released noisy histogram, one count per label. */
  histogram?: number[];
  /** keyword methods: the released keywords (PTR: null when the test failed). */
  keywords?: string[] | null;
  /** ptr: whether the stability test passed (else the zero-shot answer was released). */
  ptrPassed?: boolean;
  /** sga: the public candidates (largest noisy cluster first) and the index of the released one. */
  candidates?: string[];
  selected?: number;
}

export interface AnsweredQuery {
  result: AnswerResult;
  /** The mechanism's event (null when non-private): the caller checks it is the one it charged. */
  event: PrivacyEvent | null;
  /** Teachers replaced by "no answer" after a backend failure (report only in aggregate). */
  failures: number;
}

const demonstrations = (records: readonly PoolRecord[], task: AnswerTask): Demonstration[] =>
  records.map((r) => (task.kind === 'classification' ? { text: r.text, label: r.label } : { text: r.text, output: r.output }));

/** The prompt a teacher (or, with no demonstrations, the zero-shot model) answers. */
export function answerPrompt(template: PromptTemplate, task: AnswerTask, demos: readonly Demonstration[], query: string): string {
  const fewShot = renderFewShotPrompt(template, demos);
  return task.kind === 'classification' ? classificationQuery(template, fewShot, query) : generationQuery(template, fewShot, query);
}

/** The public final prompt of keyword space aggregation: the released keywords (and public answers, if any) guide a zero-shot answer. */
export function keywordPrompt(template: PromptTemplate, query: string, keywords: readonly string[], publicAnswers: readonly string[] = []): string {
  const reference = publicAnswers.length === 0 ? '' : `\nAnswers written from public examples: ${publicAnswers.join(' | ')}`;
  return answerPrompt({ ...template, instruction: `${template.instruction}${reference}\nAnswer using these keywords: ${keywords.join(', ')}.` }, { kind: 'generation' }, [], query);
}

/** Options of a greedy (or, with a temperature, sampled) one-line answer. */
export const generationOptions = (s: AnswerSettings, temperature = 0) => ({ maxTokens: s.maxTokens, temperature, stop: ['\n'], signal: s.signal, random: s.random });

/** A greedy (or, with a temperature, sampled) one-line answer to a prompt. */
export const generateText = async (s: AnswerSettings, prompt: string, temperature = 0) => (await s.model.generate(prompt, generationOptions(s, temperature))).text.trim();

/** The public ensemble's answers to `query` ([] without public examples). */
export const publicAnswers = (s: AnswerSettings, query: string): Promise<string[]> =>
  publicEnsembleAnswers({ examples: s.publicExamples ?? [], ensemble: s.ensemble, shots: s.shots, random: s.random }, (demos) => generateText(s, answerPrompt(s.template, s.task, demos, query)));

/** The zero-shot (ε = 0) answer: the model alone, no private example. */
export async function zeroShotAnswer(s: AnswerSettings, query: string): Promise<string> {
  const prompt = answerPrompt(s.template, s.task, [], query);
  if (s.task.kind === 'classification') return s.task.labels[await bestLabel(s, prompt, s.task.labels)];
  return generateText(s, prompt);
}

/** The label a prompt ending in "Label:" continues with (labels scored with their leading space, as tokenizers write them). */
async function bestLabel(s: AnswerSettings, prompt: string, labels: readonly string[]): Promise<number> {
  return argmaxOf(await s.model.scoreLabels(prompt, scoredLabels(labels), s.signal));
}

const scoredLabels = (labels: readonly string[]) => labels.map((label) => ` ${label}`);

const argmaxOf = (values: readonly number[]) => values.reduce((best, v, i) => (v > values[best] ? i : best), 0);

/**
 * Each teacher's answer: the model's result for its prompt (all teachers through one batched
 * call where the backend has one and is batch-invariant: teacherCalls.ts), then `answer`; null
 * for an empty teacher or a failed backend call. Teachers are awaited one after another, never
 * concurrently: without the batch, a server never holds two teachers of one query at once.
 * A cancellation is rethrown, not counted as a failure.
 */
export async function teacherAnswers<R, T>(s: AnswerSettings, query: string, call: TeacherCall<R>, answer: (result: R) => T | Promise<T>): Promise<{ answers: (T | null)[]; failures: number }> {
  requirePrivateRandom(s.random, 'private answering');
  const cap = teacherCapacity(s.shots);
  const groups = (await s.pool.sampleTeachers(s.q, s.ensemble, s.random)).map((records) => records.slice(0, cap));
  const prompts = groups.map((records) => (records.length === 0 ? null : answerPrompt(s.template, s.task, demonstrations(records, s.task), query)));
  const resultOf = await teacherResults(call, prompts, s.signal);
  const answers: (T | null)[] = [];
  let failures = 0;
  for (const [m, prompt] of prompts.entries()) {
    if (prompt === null) answers.push(null);
    else {
      try {
        answers.push(await answer(await resultOf(m)));
      } catch (error) {
        if (s.signal?.aborted) throw error;
        answers.push(null);
        failures++;
      }
    }
    s.onTeacher?.(m + 1, groups.length);
  }
  return { answers, failures };
}

/**
 * A teacher's answer embedding as the sum needs it (the public dimension, unit norm: the
 * sensitivity 2 relies on it). Anything else throws inside the teacher's guard, so one bad
 * reply from a backend is that teacher's failure, never the batch's.
 */
export function checkedEmbedding(embedding: ArrayLike<number> | undefined, dimension: number): ArrayLike<number> {
  if (embedding?.length !== dimension) throw new RangeError('the teacher answer embedding has the wrong dimension');
  let norm = 0;
  for (let i = 0; i < dimension; i++) norm += embedding[i] * embedding[i];
  if (!(Math.abs(Math.sqrt(norm) - 1) <= 1e-6)) throw new RangeError('the teacher answer embedding is not unit norm');
  return embedding;
}

/** Unit-norm embeddings of public texts (one batched call). */
const embedAll = async (s: AnswerSettings, texts: readonly string[]) => s.model.embed(texts, s.signal);

/** `count` diverse public zero-shot answers (sampled with temperature): the embedding and keyword candidates. */
async function publicCandidates(s: AnswerSettings, query: string): Promise<string[]> {
  const prompt = answerPrompt(s.template, s.task, [], query);
  const candidates: string[] = [];
  for (let i = 0; i < s.candidates; i++) candidates.push(await generateText(s, prompt, s.candidateTemperature));
  return candidates;
}

/** Answers one query: a fresh sample, the teachers' answers, one noisy aggregate. */
export async function answerQuery(s: AnswerSettings, query: string): Promise<AnsweredQuery> {
  if (s.task.kind === 'classification') {
    if (s.method !== 'vote') throw new Error(`a classification task is answered by voting, not by ${s.method}`);
    const labels = s.task.labels;
    const { answers, failures } = await teacherAnswers(s, query, labelScoreCall(s.model, scoredLabels(labels), s.signal), argmaxOf);
    const { output, event } = aggregateVote(answers, labels.length, s.noise, s.random);
    return { result: { answer: labels[output.answer], histogram: output.histogram }, event, failures };
  }
  if (s.method === 'vote') throw new Error('private voting needs a classification task with a public label set');
  if (s.method === 'sga') {
    if (!s.sga) throw new Error('sga answering needs its settings');
    return answerSgaQuery(s, s.sga, query);
  }
  const candidates = await publicCandidates(s, query);
  if (s.method === 'embedding') {
    const candidateVectors = await embedAll(s, candidates);
    const dimension = candidateVectors[0]?.length ?? 0;
    const { answers, failures } = await teacherAnswers(s, query, generationCall(s.model, generationOptions(s)), async (text) => checkedEmbedding((await embedAll(s, [text]))[0], dimension));
    const { output, event } = aggregateEmbedding(answers, candidateVectors, s.noise, s.random);
    return { result: { answer: candidates[output] }, event, failures };
  }
  const fromPublic = await publicAnswers(s, query);
  const universe = keywordUniverse(query, [...candidates, ...fromPublic]);
  const { answers, failures } = await teacherAnswers(s, query, generationCall(s.model, generationOptions(s)), (text) => keywordSet(text, universe));
  if (s.method === 'keyword') {
    const { output, event } = aggregateKeywordsEm(answers, universe.length, s.keywords, s.noise, s.random);
    const keywords = output.map((i) => universe[i]);
    return { result: { answer: await generateText(s, keywordPrompt(s.template, query, keywords, fromPublic)), keywords }, event, failures };
  }
  const privacy = s.noise === null ? null : { epsilon: s.noise, delta: s.ptrDelta };
  const { output, event } = aggregateKeywordsPtr(answers, universe.length, s.keywords, privacy, s.random);
  if (output.items === null) return { result: { answer: await zeroShotAnswer(s, query), keywords: null, ptrPassed: false }, event, failures };
  const keywords = output.items.map((i) => universe[i]);
  return { result: { answer: await generateText(s, keywordPrompt(s.template, query, keywords, fromPublic)), keywords, ptrPassed: true }, event, failures };
}
