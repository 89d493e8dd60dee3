/**
 * The token loop shared by both synthesis methods: for each token, the PUBLIC prompt
 * (instruction + label + text so far — after the synthetic input in a generation task's
 * output phase — and no private records) proposes the K candidate tokens,
 * the teachers' restricted distributions are aggregated privately, and the chosen token is
 * appended. Stops at a newline or template prefix, an end-of-text token, or T_max tokens; the pool is charged
 * T_max steps whatever was used (see synthesisPlan.ts). A generation task's demonstration
 * has a second phase — its output, after the synthetic input — charged T_max steps more.
 */
import type { LanguageModel, Prompt, TokenId, TopToken } from '../model/languageModel';
import { firstStop } from '../model/stopStrings';
import { requirePrivateRandom } from '../random/privatePathRandom';
import type { RandomSource } from '../random/randomSource';
import { drawTeachers, phasePrompts, type PhasePrompts } from './fixedTeachers';
import type { PrivatePool } from './privatePool';
import { INPUT_PHASE, publicPrompt, type Phase, type PromptTemplate } from './prompts';
import { teacherVectors } from './teacherEnsemble';
import { evaluateTeachers, type TeacherTally } from './teacherEvaluation';
import type { TokenAggregator } from './tokenAggregator';

/**
 * When the teachers are drawn: a fresh Poisson sample for every token step, or one sample
 * kept for a whole demonstration (its teacher prompts grow by the released tokens, so a
 * KV-caching backend decodes one token per teacher per step; sampling.ts has the accounting).
 */
export type SamplingMode = 'per-token' | 'per-demonstration';

export interface SynthesisShape {
  /** M: teachers per token. */
  teachers: number;
  /** N: expected private examples per teacher (q = M·N / pool size). */
  perTeacher: number;
  /** K: candidates from the public prompt's top-K next tokens. */
  topK: number;
  /** T_max: most tokens per demonstration. */
  maxTokens: number;
  /** Default 'per-token'. */
  sampling?: SamplingMode;
}

export function samplingRate(shape: Pick<SynthesisShape, 'teachers' | 'perTeacher'>, poolUnits: number): number {
  if (poolUnits <= 0) throw new Error('the private pool is empty');
  return Math.min(1, (shape.teachers * shape.perTeacher) / poolUnits);
}

export interface DemonstrationRequest {
  model: LanguageModel;
  template: PromptTemplate;
  pool: PrivatePool;
  /**
   * The Poisson rate the release was charged for (default: from the pool's size now). A job
   * passes the rate it was priced at, so records deleted between reservation and generation
   * cannot raise q above what the ledger holds (the subsampled event depends on q only).
   */
  rate?: number;
  label?: string;
  /** Generation tasks: after the input, write its output (a second phase of up to T_max steps). */
  withOutput?: boolean;
  shape: SynthesisShape;
  aggregator: TokenAggregator;
  /** The CSPRNG (a seeded source is refused unless a test opted it in: privatePathRandom.ts). */
  random: RandomSource;
  signal?: AbortSignal;
  /** After every emitted token: the text so far and the step number. */
  onToken?: (textSoFar: string, step: number) => void;
  /** Time split for benches and step-cost estimates: model evaluation vs mechanism, in ms. */
  timing?: StepTiming;
  /** Teacher evaluations and substitutions by the uniform vector, for the job's aggregate after it ends. */
  teacherTally?: TeacherTally;
}

/** Accumulated step times (ms); a phase's first step (its prefill when teachers are fixed) also counted apart. */
export interface StepTiming {
  modelMs: number;
  mechanismMs: number;
  steps?: number;
  firstSteps?: number;
  firstStepMs?: number;
}

export interface GeneratedDemonstration {
  text: string;
  /** Generation tasks: the synthetic output written after the input. */
  output?: string;
  /** Token steps actually run (≤ the charged maximum, which is charged regardless). */
  steps: number;
}

/** Token steps charged per demonstration: T_max, twice for generation tasks (input, then output). */
export const stepsPerDemonstration = (shape: Pick<SynthesisShape, 'maxTokens'>, withOutput: boolean): number =>
  shape.maxTokens * (withOutput ? 2 : 1);

/**
 * The candidates of one step: the public top-K without control tokens (BOS, padding, unknown)
 * and, at a phase's first step, without an end of text, a blank piece or the label itself, so
 * that no phase is empty and no demonstration is just its label (a weak model copies the
 * "Label: spam" lines of its prompt). A public choice: it depends only on the public prompt's
 * top-K and the public label, never on records.
 */
export function candidatesOf(top: readonly TopToken[], first: boolean, label: string | undefined): TopToken[] {
  const isLabel = (t: TopToken) => label !== undefined && t.text.trim().toLowerCase() === label.trim().toLowerCase();
  const kept = top.filter((t) => t.special !== 'control' && !(first && (t.special === 'end' || t.text.trim() === '' || isLabel(t))));
  if (kept.length === 0) throw new Error('the public prompt proposes no text token to start with; raise K or change the instruction');
  return kept;
}

/** A template's own prefixes ("Text:", "Label:", "Output:") end a text as a newline does: the next field has begun. */
const templatePrefixes = (t: PromptTemplate) => [t.inputPrefix, t.labelPrefix, t.outputPrefix ?? 'Output:'].filter((p) => p.trim() !== '');

/**
 * A released text: trimmed, without U+FFFD — byte tokens that make no whole character (a
 * lone continuation byte, a character cut at T_max). The prompts of later steps keep them, so a
 * character split over steps can still complete.
 */
const finished = (text: string) => text.replace(/\uFFFD/g, '').trim();

/** The text of the tokens chosen so far, decoded together (a character split over byte tokens comes out whole). */
async function spell(model: LanguageModel, chosen: readonly TopToken[]): Promise<string> {
  if (model.capabilities.tokenize) return model.detokenize(chosen.map((t) => t.token));
  return chosen.map((t) => t.text).join('');
}

/** Where one step's prompts come from: a fresh sample per step, or the demonstration's fixed teachers. */
interface StepPrompts {
  publicPrompt(text: string, chosen: readonly TopToken[]): Prompt;
  vectors(text: string, chosen: readonly TopToken[], candidates: readonly TokenId[], step: number): Promise<Float64Array[]>;
}

function freshSamples(req: DemonstrationRequest, q: number, phase: Phase): StepPrompts {
  return {
    publicPrompt: (text) => publicPrompt(req.template, req.label, text, phase),
    vectors: (text, _chosen, candidates) => teacherVectors({ ...req, ...req.shape, soFar: text, phase, candidates, q }),
  };
}

function fixedSample(req: DemonstrationRequest, prompts: PhasePrompts): StepPrompts {
  return {
    publicPrompt: (_text, chosen) => prompts.publicAfter(chosen),
    // The first step of a phase starts the teachers' sequences afresh; later steps continue them.
    // A failing teacher gets the uniform vector, as with fresh samples (teacherEvaluation.ts).
    vectors: (_text, chosen, candidates, step) =>
      evaluateTeachers({
        model: req.model, prompts: prompts.teachersAfter(chosen), publicPrompt: prompts.publicAfter(chosen), candidates,
        signal: req.signal, tally: req.teacherTally, continuing: step > 1,
      }),
  };
}

/**
 * One phase of a demonstration: up to T_max private token steps. Ends before an end-of-text
 * token (its text is never written) and at the first newline or template prefix (post-processing
 * of the released tokens: every step is charged regardless); `shown` is what onToken reports.
 */
async function writePhase(req: DemonstrationRequest, prompts: StepPrompts, firstStep: number, shown: (soFar: string) => string) {
  const { model, shape } = req;
  const chosen: TopToken[] = [];
  let text = '';
  for (let step = 1; step <= shape.maxTokens; step++) {
    req.signal?.throwIfAborted();
    const started = performance.now();
    const top = candidatesOf(await model.topNextTokens(prompts.publicPrompt(text, chosen), shape.topK, req.signal), step === 1, req.label);
    const vectors = await prompts.vectors(text, chosen, top.map((t) => t.token), step);
    const evaluated = performance.now();
    const next = top[req.aggregator.choose(vectors, req.random)];
    if (req.timing) {
      req.timing.modelMs += evaluated - started;
      req.timing.mechanismMs += performance.now() - evaluated;
      req.timing.steps = (req.timing.steps ?? 0) + 1;
      if (step === 1) {
        req.timing.firstSteps = (req.timing.firstSteps ?? 0) + 1;
        req.timing.firstStepMs = (req.timing.firstStepMs ?? 0) + performance.now() - started;
      }
    }
    if (next.special === 'end' || next.text === '') return { text: finished(text), steps: step };
    chosen.push(next);
    const written = await spell(model, chosen);
    const end = firstStop(written, ['\n', ...templatePrefixes(req.template)]);
    if (end !== null) return { text: finished(written.slice(0, end)), steps: step };
    text = written;
    req.onToken?.(shown(text), firstStep + step);
  }
  return { text: finished(text), steps: shape.maxTokens };
}

/**
 * One demonstration. Per-token sampling draws the teachers afresh at every step; per
 * demonstration, one sample serves both phases (sampling.ts charges it as one subsampled
 * composition).
 */
export async function generateDemonstration(req: DemonstrationRequest): Promise<GeneratedDemonstration> {
  requirePrivateRandom(req.random, 'synthesis');
  const q = req.rate ?? samplingRate(req.shape, req.pool.units);
  const fixed = req.shape.sampling === 'per-demonstration';
  const groups = fixed ? await drawTeachers(req.pool, q, req.shape.teachers, req.shape.perTeacher, req.random) : [];
  const promptsFor = async (phase: Phase) =>
    fixed ? fixedSample(req, await phasePrompts(req.model, req.template, groups, req.label, phase, req.shape.maxTokens)) : freshSamples(req, q, phase);
  const input = await writePhase(req, await promptsFor(INPUT_PHASE), 0, (soFar) => soFar);
  if (!req.withOutput) return input;
  const phase: Phase = { kind: 'output', input: input.text };
  const output = await writePhase(req, await promptsFor(phase), input.steps, (soFar) => `${input.text} → ${soFar}`);
  return { text: input.text, output: output.text, steps: input.steps + output.steps };
}
