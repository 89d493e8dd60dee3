/**
 * How the teachers of one answered query call the model. A backend whose per-prompt results do
 * not depend on their batch-mates (`capabilities.batchInvariant`: llama.cpp, each teacher in its
 * own KV-cache sequence with padded rows) answers them together (LanguageModel.generateEach /
 * scoreLabelsEach: each teacher's prompt prefilled once, then one token of every teacher per
 * decode). Any other backend — an OpenAI-compatible server, whose GPU numerics may depend on
 * what it batches together, so that one unit's change in teacher i's prompt could move teacher
 * j's answer, against the aggregations' one-teacher sensitivity — gets one call per teacher,
 * one at a time (answerQuery.ts awaits them in turn). When the batched call fails as a whole,
 * each teacher calls the model alone, so a backend failure still touches its own teacher only
 * (answerQuery.ts substitutes "no answer").
 */
import type { GenerateOptions, LanguageModel } from '../../model/languageModel';

export interface TeacherCall<R> {
  /** Every teacher at once (null: a teacher without records); absent unless the backend has such a call and is batch-invariant. */
  batch?: (prompts: readonly (string | null)[]) => Promise<readonly (R | null)[]>;
  alone: (prompt: string) => Promise<R>;
}

/** Teachers may share a call only where a prompt's result does not depend on what it is sent with. */
const batchInvariant = (model: LanguageModel) => model.capabilities.batchInvariant === true;

/** Teachers' generated answers (trimmed text). */
export function generationCall(model: LanguageModel, options: GenerateOptions): TeacherCall<string> {
  const each = batchInvariant(model) ? model.generateEach?.bind(model) : undefined;
  return {
    batch: each && (async (prompts) => (await each(prompts, options)).map((g) => g && g.text.trim())),
    alone: async (prompt) => (await model.generate(prompt, options)).text.trim(),
  };
}

/** Teachers' log-probabilities of each label. */
export function labelScoreCall(model: LanguageModel, labels: readonly string[], signal?: AbortSignal): TeacherCall<number[]> {
  const each = batchInvariant(model) ? model.scoreLabelsEach?.bind(model) : undefined;
  return {
    batch: each && ((prompts) => each(prompts, labels, signal)),
    alone: (prompt) => model.scoreLabels(prompt, labels, signal),
  };
}

/**
 * Runs the batched call once and returns each teacher's result on demand: from the batch when
 * it succeeded, else from the teacher's own call. It throws (for the caller's per-teacher guard)
 * when the batch gave that teacher nothing. A cancellation is rethrown at once.
 */
export async function teacherResults<R>(call: TeacherCall<R>, prompts: readonly (string | null)[], signal?: AbortSignal): Promise<(teacher: number) => Promise<R>> {
  let batch: readonly (R | null)[] | null = null;
  if (call.batch && prompts.some((p) => p !== null)) {
    try {
      const results = await call.batch(prompts);
      if (results.length === prompts.length) batch = results;
    } catch (error) {
      if (signal?.aborted) throw error;
    }
  }
  return async (teacher) => {
    const prompt = prompts[teacher];
    if (prompt === null) throw new Error('a teacher without records is not evaluated');
    if (!batch) return call.alone(prompt);
    const result = batch[teacher];
    if (result === null) throw new Error('the backend gave no answer for this teacher');
    return result;
  };
}
