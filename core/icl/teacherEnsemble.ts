/**
 * One DP token step's ensemble: Poisson-sample the label's private pool (fresh CSPRNG
 * draws every step), assign the sampled records uniformly to M teachers, evaluate every
 * teacher prompt restricted to the public candidate tokens, and return the per-teacher
 * probability vectors. Adding or removing one record changes exactly one teacher's vector.
 */
import type { LanguageModel, TokenId } from '../model/languageModel';
import type { RandomSource } from '../random/randomSource';
import { poissonSampleTeachers } from '../mechanisms/poissonSampling';
import { teacherPrompt, type PromptTemplate } from './prompts';

export interface EnsembleRequest {
  model: LanguageModel;
  template: PromptTemplate;
  /** Private records of this pool (one label's private split, or the whole private split). */
  pool: readonly string[];
  /** Public label this demonstration is generated for (absent for generation tasks). */
  label?: string;
  soFar: string;
  candidates: readonly TokenId[];
  q: number;
  teachers: number;
  random: RandomSource;
  signal?: AbortSignal;
}

export async function teacherDistributions(req: EnsembleRequest): Promise<Float64Array[]> {
  const groups = poissonSampleTeachers(req.pool.length, req.q, req.teachers, req.random);
  const prompts = groups.map((members) =>
    teacherPrompt(req.template, members.map((i) => ({ text: req.pool[i], label: req.label })), req.label, req.soFar),
  );
  const dists = await req.model.nextTokenDistributions(prompts, { restrictTo: req.candidates, signal: req.signal });
  return dists.map((d) => d.probs);
}

/** Coordinate-wise sum of the teachers' vectors (what the mechanisms add noise to). */
export function sumVectors(vectors: readonly Float64Array[], dimension: number): Float64Array {
  const sum = new Float64Array(dimension);
  for (const v of vectors) for (let i = 0; i < dimension; i++) sum[i] += v[i];
  return sum;
}
