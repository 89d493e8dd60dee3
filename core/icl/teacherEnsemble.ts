/**
 * One DP token step's ensemble: Poisson-sample the pool (fresh draws every step), build
 * each teacher's prompt from its sampled records, and evaluate all M prompts in one
 * batched call restricted to the public candidate tokens. Each teacher's vector is a
 * probability vector over the candidates — a failed teacher's is the uniform one
 * (teacherEvaluation.ts) — so one changed teacher moves the sum by at most √2 in ℓ2 and
 * 1 in ℓ∞ (ARCHITECTURE §4).
 */
import type { LanguageModel, TokenId } from '../model/languageModel';
import { requirePrivateRandom } from '../random/privatePathRandom';
import type { RandomSource } from '../random/randomSource';
import type { PrivatePool } from './privatePool';
import { publicPrompt, teacherPrompt, type Phase, type PromptTemplate } from './prompts';
import { evaluateTeachers, type TeacherTally } from './teacherEvaluation';

export interface EnsembleRequest {
  model: LanguageModel;
  template: PromptTemplate;
  pool: PrivatePool;
  /** Public label the demonstration is generated for (absent for generation tasks). */
  label?: string;
  soFar: string;
  /** Writing the input, or (generation tasks) the output for a synthetic input. */
  phase?: Phase;
  candidates: readonly TokenId[];
  q: number;
  teachers: number;
  perTeacher: number;
  random: RandomSource;
  signal?: AbortSignal;
  /** Counts evaluations and substitutions; read only after the job. */
  teacherTally?: TeacherTally;
}

/**
 * Most records one teacher's prompt holds: 2N + 1 (Poisson counts rarely exceed it). A
 * fixed, public cap applied to each teacher separately keeps prompts inside the context
 * and still lets one unit change only its own teacher.
 */
export const teacherCapacity = (perTeacher: number) => Math.ceil(2 * perTeacher) + 1;

export async function teacherVectors(req: EnsembleRequest): Promise<Float64Array[]> {
  requirePrivateRandom(req.random, 'the teacher ensemble');
  const groups = await req.pool.sampleTeachers(req.q, req.teachers, req.random);
  const cap = teacherCapacity(req.perTeacher);
  const prompts = groups.map((records) =>
    teacherPrompt(req.template, records.slice(0, cap).map((r) => ({ ...r, label: req.label })), req.label, req.soFar, req.phase),
  );
  return evaluateTeachers({ model: req.model, prompts, publicPrompt: publicPrompt(req.template, req.label, req.soFar, req.phase), candidates: req.candidates, signal: req.signal, tally: req.teacherTally });
}

/** Coordinate-wise sum of the teachers' vectors. */
export function sumVectors(vectors: readonly Float64Array[], dimension: number): Float64Array {
  const sum = new Float64Array(dimension);
  for (const v of vectors) for (let i = 0; i < dimension; i++) sum[i] += v[i];
  return sum;
}

export function argmax(values: ArrayLike<number>): number {
  let best = 0;
  for (let i = 1; i < values.length; i++) if (values[i] > values[best]) best = i;
  return best;
}
