/**
 * The token loop shared by both synthesis methods: for each token, the PUBLIC prompt
 * (instruction + label + text so far, no private records) proposes the K candidate tokens,
 * the teachers' restricted distributions are aggregated privately, and the chosen token is
 * appended. Stops at a newline, the end of text, or T_max tokens; the pool is charged
 * T_max steps whatever was used (see synthesisPlan.ts).
 */
import type { LanguageModel } from '../model/languageModel';
import type { RandomSource } from '../random/randomSource';
import type { PrivatePool } from './privatePool';
import { publicPrompt, type PromptTemplate } from './prompts';
import { teacherVectors } from './teacherEnsemble';
import type { TokenAggregator } from './tokenAggregator';

export interface SynthesisShape {
  /** M: teachers per token. */
  teachers: number;
  /** N: expected private examples per teacher (q = M·N / pool size). */
  perTeacher: number;
  /** K: candidates from the public prompt's top-K next tokens. */
  topK: number;
  /** T_max: most tokens per demonstration. */
  maxTokens: number;
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
  shape: SynthesisShape;
  aggregator: TokenAggregator;
  random: RandomSource;
  signal?: AbortSignal;
  /** After every emitted token: the text so far and the step number. */
  onToken?: (textSoFar: string, step: number) => void;
  /** Time split for benches: model evaluation vs mechanism, in ms. */
  timing?: { modelMs: number; mechanismMs: number };
}

export interface GeneratedDemonstration {
  text: string;
  /** Token steps actually run (≤ T_max; the charge is T_max regardless). */
  steps: number;
}

export async function generateDemonstration(req: DemonstrationRequest): Promise<GeneratedDemonstration> {
  const { model, shape } = req;
  const q = req.rate ?? samplingRate(shape, req.pool.units);
  let text = '';
  for (let step = 1; step <= shape.maxTokens; step++) {
    req.signal?.throwIfAborted();
    const started = performance.now();
    const top = await model.topNextTokens(publicPrompt(req.template, req.label, text), shape.topK, req.signal);
    const candidates = top.map((t) => t.token);
    const vectors = await teacherVectors({ ...req, ...shape, soFar: text, candidates, q });
    const evaluated = performance.now();
    const piece = top[req.aggregator.choose(vectors, req.random)].text;
    if (req.timing) {
      req.timing.modelMs += evaluated - started;
      req.timing.mechanismMs += performance.now() - evaluated;
    }
    const newline = piece.indexOf('\n');
    if (piece === '' || newline >= 0) {
      text += newline > 0 ? piece.slice(0, newline) : '';
      return { text: text.trim(), steps: step };
    }
    text += piece;
    req.onToken?.(text, step);
  }
  return { text: text.trim(), steps: shape.maxTokens };
}
