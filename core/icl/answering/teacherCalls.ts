/**
 * How the teachers of one answered query call the model. A backend with a KV cache answers
 * them together (LanguageModel.generateEach / scoreLabelsEach: each teacher's prompt
 * prefilled once in its own sequence, then one token of every teacher per decode); otherwise,
 * or when that call fails as a whole, each teacher calls the model alone — so a backend
 * failure still touches its own teacher only (answerQuery.ts substitutes "no answer").
 */
import type { GenerateOptions, LanguageModel } from '../../model/languageModel';

export interface TeacherCall<R> {
  /** Every teacher at once (null: a teacher without records); absent when the backend has no such call. */
  batch?: (prompts: readonly (string | null)[]) => Promise<readonly (R | null)[]>;
  alone: (prompt: string) => Promise<R>;
}

/** Teachers' generated answers (trimmed text). */
export function generationCall(model: LanguageModel, options: GenerateOptions): TeacherCall<string> {
  const each = model.generateEach?.bind(model);
  return {
    batch: each && (async (prompts) => (await each(prompts, options)).map((g) => g && g.text.trim())),
    alone: async (prompt) => (await model.generate(prompt, options)).text.trim(),
  };
}

/** Teachers' log-probabilities of each label. */
export function labelScoreCall(model: LanguageModel, labels: readonly string[], signal?: AbortSignal): TeacherCall<number[]> {
  const each = model.scoreLabelsEach?.bind(model);
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
