/** An answering plan's noise in words, for the CLI and the Ask page alike. */
import type { AnswerPlanDto } from './api/answering';

export function answerNoiseText(noise: AnswerPlanDto['noise'], digits = 5): string {
  if (noise.kind === 'gaussian') return `Gaussian σ = ${noise.sigma.toPrecision(digits)}`;
  if (noise.kind === 'pure') return `ε per query = ${noise.epsilonPerQuery.toPrecision(digits)}`;
  return `ρ per query = ${noise.rho.toPrecision(digits)} (private clustering, zCDP)`;
}
