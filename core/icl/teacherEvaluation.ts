/**
 * Teachers' vectors whose failure changes nothing that is released (ARCHITECTURE §4; issue 20).
 *
 * A teacher prompt holds sampled private records, so whether its evaluation fails (a remote
 * server's HTTP error or content filter, a prompt too long, a missing logprob, NaN, a llama.cpp
 * error) depends on private data. Aborting the job, or showing the failure while it runs,
 * would release that bit without charging it. Instead the failed teacher's vector is replaced
 * by a FIXED PUBLIC vector — uniform over the candidates — which is a probability vector like
 * any other: one changed teacher still moves the sum by at most √2 in ℓ2 and 1 in ℓ∞, so the
 * charged sensitivity holds (the neighbouring datasets differ in one teacher whose vector is,
 * on either side, some probability vector). Valid vectors are renormalised to sum 1 (a
 * function of that teacher's prompt alone).
 *
 * A batched call fails as a whole when one prompt fails (a server refuses the request), so on a
 * failed batch every prompt is evaluated alone: a failure then touches its own teacher only.
 * Failures are counted in a tally read only after the job. The job stops only when a PUBLIC
 * computation fails: after any substitution the public prompt is evaluated on the same
 * candidates, and if that fails too (the server is down, the model process died) the error is
 * thrown — its outcome does not depend on records. Cancellation is always rethrown.
 */
import type { LanguageModel, Prompt, TokenDistribution, TokenId } from '../model/languageModel';

/** Teacher evaluations of a job: how many ran and how many were replaced by the uniform vector. */
export interface TeacherTally {
  evaluated: number;
  substituted: number;
}

export const newTeacherTally = (): TeacherTally => ({ evaluated: 0, substituted: 0 });

/** The tally as the analyst reads it after the job (never during it: which step failed depends on private records). */
export function substitutionNote({ evaluated, substituted }: TeacherTally): string {
  return `${substituted} of ${evaluated} teacher evaluations failed (a server error, a refused or too long prompt, a missing or invalid probability) and used the uniform vector instead; the privacy guarantee is unchanged, the demonstrations may be weaker`;
}

/** A public computation failed (the public prompt's evaluation): the job stops. */
export class PublicEvaluationError extends Error {
  constructor(cause: unknown) {
    super(`the model failed on the public prompt (not on a private record): ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/** The fixed public vector a failed teacher gets: uniform over the k candidates. */
export const uniformVector = (k: number): Float64Array => new Float64Array(k).fill(1 / k);

/** `probs` as a probability vector over k candidates, or null when it is not one (wrong length, NaN, ∞, negative, all zero). */
export function probabilityVector(probs: ArrayLike<number> | undefined, k: number): Float64Array | null {
  if (!probs || probs.length !== k) return null;
  let sum = 0;
  for (let i = 0; i < k; i++) {
    const p = probs[i];
    if (!(p >= 0 && Number.isFinite(p))) return null;
    sum += p;
  }
  if (!(sum > 0 && Number.isFinite(sum))) return null;
  return Float64Array.from({ length: k }, (_, i) => probs[i] / sum);
}

export interface TeacherEvaluationRequest {
  model: LanguageModel;
  prompts: readonly Prompt[];
  /** The public prompt the candidates came from: evaluated after a substitution to tell a public failure. */
  publicPrompt: Prompt;
  candidates: readonly TokenId[];
  signal?: AbortSignal;
  tally?: TeacherTally;
  /** Teachers fixed for a demonstration: each prompt extends the one its sequence evaluated last (KV reuse). */
  continuing?: boolean;
}

/** One probability vector per teacher prompt, never failing on a teacher's account. */
export async function evaluateTeachers(req: TeacherEvaluationRequest): Promise<Float64Array[]> {
  const { model, prompts, candidates, signal } = req;
  const options = { restrictTo: candidates, signal };
  /** The distributions `work` returns, or null when it fails or answers for another number of prompts. */
  const settle = async (work: () => Promise<TokenDistribution[]>, expected: number): Promise<TokenDistribution[] | null> => {
    try {
      const result = await work();
      return result.length === expected ? result : null;
    } catch (error) {
      if (signal?.aborted) throw error;
      return null;
    }
  };
  const alone = (p: Prompt) => settle(async () => [await model.nextTokenDistribution(p, options)], 1);
  const batch = prompts.length === 0 ? [] : await settle(() => model.nextTokenDistributions(prompts, { ...options, continuing: req.continuing }), prompts.length);
  // After a failed batch each prompt goes alone, one after another: never several private
  // prompts in flight together on a backend whose numerics may depend on its batch (remote).
  const each: (TokenDistribution | null)[] = batch ?? [];
  if (!batch) for (const p of prompts) each.push((await alone(p))?.[0] ?? null);
  const vectors = each.map((d) => probabilityVector(d?.probs, candidates.length));
  const substituted = vectors.filter((v) => v === null).length;
  if (req.tally) {
    req.tally.evaluated += prompts.length;
    req.tally.substituted += substituted;
  }
  if (substituted > 0) await checkPublic(req);
  return vectors.map((v) => v ?? uniformVector(candidates.length));
}

async function checkPublic({ model, publicPrompt, candidates, signal }: TeacherEvaluationRequest): Promise<void> {
  let probs: ArrayLike<number> | undefined;
  try {
    probs = (await model.nextTokenDistribution(publicPrompt, { restrictTo: candidates, signal })).probs;
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new PublicEvaluationError(error);
  }
  if (!probabilityVector(probs, candidates.length)) throw new PublicEvaluationError('no probability vector (NaN, ∞ or wrong length)');
}
