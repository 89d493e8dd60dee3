/**
 * DP few-shot generation (Tang et al., "Privacy-Preserving In-Context Learning with
 * Differentially Private Few-Shot Generation", ICLR 2024, Algorithm 1), under Veil's
 * conventions (ARCHITECTURE §4):
 *
 * - neighbouring: add/remove one private record; privacy unit: one record;
 * - each token: Poisson sampling with q = M·N / |pool| (fresh CSPRNG draws), uniform
 *   assignment to M teachers, so one record changes exactly one teacher's vector;
 * - candidates: the K most likely next tokens of the PUBLIC prompt (no private records);
 * - Gaussian variant: sum of teacher vectors has ℓ2 sensitivity √2; add N(0, σ²) per
 *   coordinate; release the argmax. Event: PoissonSampled(q, Gaussian(σ, √2)).
 * - exponential variant: the sum has ℓ∞ sensitivity 1; report-noisy-max with Exp(2/ε)
 *   noise (≡ permute-and-flip, Ding et al. 2021) is ε-DP. Event: PoissonSampled(q, Pure(ε)).
 * - a demonstration is charged its maximum T_max token steps, whatever it used.
 */
import { composed, gaussian, poissonSampled, pureDp, type PrivacyEvent } from '../accounting/events';
import type { LanguageModel } from '../model/languageModel';
import type { RandomSource } from '../random/randomSource';
import { reportNoisyMax } from './noisyArgmax';
import { publicPrompt, type PromptTemplate } from './prompts';
import { sumVectors, teacherDistributions } from './teacherEnsemble';

export type TangNoise = { kind: 'gaussian'; sigma: number } | { kind: 'exponential'; epsilon: number };

export interface TangParams {
  teachers: number;
  perTeacher: number;
  topK: number;
  maxTokens: number;
  noise: TangNoise;
}

export const SUM_L2_SENSITIVITY = Math.SQRT2;

export function samplingRate(params: Pick<TangParams, 'teachers' | 'perTeacher'>, poolSize: number): number {
  if (poolSize <= 0) throw new Error('the private pool is empty');
  return Math.min(1, (params.teachers * params.perTeacher) / poolSize);
}

/** The event one token step charges. */
export function tangTokenEvent(q: number, noise: TangNoise): PrivacyEvent {
  const base = noise.kind === 'gaussian' ? gaussian(noise.sigma, SUM_L2_SENSITIVITY) : pureDp(noise.epsilon);
  return poissonSampled(q, base);
}

/** The event of `demonstrations` demonstrations drawn from one pool (T_max steps each). */
export function tangPoolEvent(q: number, noise: TangNoise, maxTokens: number, demonstrations: number): PrivacyEvent {
  return composed(tangTokenEvent(q, noise), maxTokens * demonstrations);
}

export interface TangRequest {
  model: LanguageModel;
  template: PromptTemplate;
  pool: readonly string[];
  label?: string;
  params: TangParams;
  random: RandomSource;
  signal?: AbortSignal;
  /** Called with the text generated so far after every token. */
  onToken?: (textSoFar: string, step: number) => void;
}

/** Generate one synthetic demonstration, token by token. */
export async function generateTangDemonstration(req: TangRequest): Promise<{ text: string; steps: number }> {
  const { model, params } = req;
  const q = samplingRate(params, req.pool.length);
  let text = '';
  for (let step = 1; step <= params.maxTokens; step++) {
    req.signal?.throwIfAborted();
    const top = await model.topNextTokens(publicPrompt(req.template, req.label, text), params.topK, req.signal);
    const candidates = top.map((t) => t.token);
    const vectors = await teacherDistributions({ ...req, soFar: text, candidates, q, teachers: params.teachers });
    const index = reportNoisyMax(sumVectors(vectors, candidates.length), params.noise, req.random);
    const piece = await model.tokenText(candidates[index]);
    const newline = piece.indexOf('\n');
    if (piece === '' || newline >= 0) {
      text += newline > 0 ? piece.slice(0, newline) : '';
      return { text: text.trim(), steps: step };
    }
    text += piece;
    req.onToken?.(text, step);
  }
  return { text: text.trim(), steps: params.maxTokens };
}
