/**
 * Teachers fixed for a whole demonstration (sampling 'per-demonstration'; accounting in
 * sampling.ts). One Poisson sample and one assignment of its units to the M teachers serve
 * every step of the demonstration; each phase's prompts are built once — instruction,
 * the teacher's records, label, field prefix — and grow by exactly the released tokens, so
 * a backend with a KV cache evaluates one new token per teacher per step (`continuing`).
 * Prompts are token ids when the model tokenizes (the released ids are appended as they
 * are), else text (the released tokens' texts are appended). The public prompt is built the
 * same way, without records, so it sees exactly the tokens the teachers see.
 */
import type { LanguageModel, Prompt, TokenId, TopToken } from '../model/languageModel';
import type { RandomSource } from '../random/randomSource';
import type { PrivatePool, PoolRecord } from './privatePool';
import { publicPrompt, teacherPrompt, type Phase, type PromptTemplate } from './prompts';
import { teacherCapacity } from './teacherEnsemble';

/** The sampled records of each teacher, capped as per-token sampling caps them. */
export async function drawTeachers(pool: PrivatePool, q: number, teachers: number, perTeacher: number, random: RandomSource): Promise<PoolRecord[][]> {
  const cap = teacherCapacity(perTeacher);
  return (await pool.sampleTeachers(q, teachers, random)).map((records) => records.slice(0, cap));
}

export interface PhasePrompts {
  /** The public prompt after the tokens released so far in this phase. */
  publicAfter(chosen: readonly TopToken[]): Prompt;
  /** Every teacher's prompt after the tokens released so far in this phase. */
  teachersAfter(chosen: readonly TopToken[]): Prompt[];
}

/**
 * The prompts of one phase. A token prefix longer than the context less the phase's T_max
 * steps is cut from the left once, here, so that it never has to be cut (and re-evaluated)
 * again during the phase.
 */
export async function phasePrompts(
  model: LanguageModel,
  template: PromptTemplate,
  groups: readonly PoolRecord[][],
  label: string | undefined,
  phase: Phase,
  maxTokens: number,
): Promise<PhasePrompts> {
  const teacherTexts = groups.map((records) => teacherPrompt(template, records.map((r) => ({ ...r, label })), label, '', phase));
  const publicText = publicPrompt(template, label, '', phase);
  if (!model.capabilities.tokenize) {
    const grow = (prefix: string, chosen: readonly TopToken[]) => prefix + chosen.map((t) => t.text).join('');
    return { publicAfter: (chosen) => grow(publicText, chosen), teachersAfter: (chosen) => teacherTexts.map((p) => grow(p, chosen)) };
  }
  const room = (model.info.contextLength ?? Infinity) - 1 - maxTokens;
  const fit = (tokens: TokenId[]) => (room > 0 && tokens.length > room ? tokens.slice(tokens.length - room) : tokens);
  const teacherTokens = await Promise.all(teacherTexts.map(async (text) => fit(await model.tokenize(text))));
  const publicTokens = fit(await model.tokenize(publicText));
  const grow = (prefix: readonly TokenId[], chosen: readonly TopToken[]) => [...prefix, ...chosen.map((t) => t.token)];
  return { publicAfter: (chosen) => grow(publicTokens, chosen), teachersAfter: (chosen) => teacherTokens.map((p) => grow(p, chosen)) };
}
