/**
 * Membership-inference attacks on a target, each a score function of one candidate record
 * (higher = "more likely a member"):
 *
 * - label: Duan et al., "Flocks of stochastic parrots: differentially private prompt
 *   learning for large language models" (NeurIPS 2023), §3 — the target's probability of
 *   the candidate's true label, p(y | prompt, x) = softmax over the public label set of the
 *   label log-probabilities. A prompt tends to be more confident on its own demonstrations.
 * - repeat: Wen et al., "Membership inference attacks against in-context learning" (CCS
 *   2024), Repeat attack (also Joo et al.) — give the target the first half of the
 *   candidate's words (at most 16) and compare its continuation with the candidate's rest:
 *   ROUGE-L F1 (Lin 2004) and the cosine of the model's unit-norm embeddings. A prompt
 *   tends to repeat text it holds.
 * - inquiry: Wen et al. 2024, Inquiry attack — ask the target whether it has seen the text;
 *   the score is p(" Yes") / (p(" Yes") + p(" No")).
 */
import { rougeL } from '../icl/rouge';
import type { LanguageModel } from '../model/languageModel';
import type { AuditTarget } from './target';

export const ATTACKS = ['label', 'repeat', 'inquiry'] as const;
export type AttackName = (typeof ATTACKS)[number];

/** The score series each attack yields (repeat yields two from one generation). */
export const ATTACK_SCORES = {
  label: ['label-probability'],
  repeat: ['repeat-rouge-l', 'repeat-cosine'],
  inquiry: ['inquiry-yes'],
} as const satisfies Record<AttackName, readonly string[]>;
export type ScoreName = (typeof ATTACK_SCORES)[AttackName][number];

export interface Candidate {
  text: string;
  /** The record's label (classification); the label attack needs it. */
  label: string | null;
}

export interface AttackContext {
  target: AuditTarget;
  /** Embeds texts for the repeat attack's cosine score (the attacker's own model). */
  model: LanguageModel;
  /** The public label set (label attack). */
  labels: readonly string[];
  signal?: AbortSignal;
}

/** Whether the attack can run on this target and dataset (what it needs is there). */
export function attackApplies(attack: AttackName, ctx: Pick<AttackContext, 'target' | 'labels'>): boolean {
  if (attack === 'label') return ctx.target.classify !== undefined && ctx.labels.length >= 2;
  if (attack === 'repeat') return ctx.target.complete !== undefined;
  return ctx.target.ask !== undefined;
}

/** Softmax of log-probabilities at index i (stable). */
export function softmaxAt(logProbs: readonly number[], i: number): number {
  const top = Math.max(...logProbs);
  if (top === -Infinity) return 1 / logProbs.length;
  const total = logProbs.reduce((s, l) => s + Math.exp(l - top), 0);
  return Math.exp(logProbs[i] - top) / total;
}

const words = (text: string) => text.trim().split(/\s+/).filter(Boolean);
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The repeat attack's split of a candidate: the start it shows and the rest it compares with. */
export function repeatSplit(text: string, maxStartWords = 16): { start: string; rest: string } {
  const all = words(oneLine(text));
  const cut = Math.min(maxStartWords, Math.max(1, Math.floor(all.length / 2)));
  return { start: all.slice(0, cut).join(' '), rest: all.slice(cut).join(' ') };
}

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i] * b[i];
  return dot; // both unit norm (LanguageModel.embed)
}

const INQUIRY_ANSWERS = [' Yes', ' No'] as const;
const inquiryQuestion = (text: string) => `Question: Have you seen this exact text before? "${oneLine(text)}"\nAnswer (Yes or No):`;

const REPEAT_TOKENS = 48;

/** The scores of one candidate under one attack. */
export async function attackScores(attack: AttackName, candidate: Candidate, ctx: AttackContext): Promise<Partial<Record<ScoreName, number>>> {
  const { target, signal } = ctx;
  if (attack === 'label') {
    const at = candidate.label === null ? -1 : ctx.labels.indexOf(candidate.label);
    if (at < 0) throw new Error('the label attack needs candidates labelled from the public label set');
    return { 'label-probability': softmaxAt(await target.classify!(candidate.text, ctx.labels, signal), at) };
  }
  if (attack === 'repeat') {
    const { start, rest } = repeatSplit(candidate.text);
    const continuation = await target.complete!(start, REPEAT_TOKENS, signal);
    if (continuation.trim() === '' || rest === '') return { 'repeat-rouge-l': 0, 'repeat-cosine': 0 };
    const [c, r] = await ctx.model.embed([continuation, rest], signal);
    return { 'repeat-rouge-l': rougeL(continuation, rest), 'repeat-cosine': cosine(c, r) };
  }
  return { 'inquiry-yes': softmaxAt(await target.ask!(inquiryQuestion(candidate.text), INQUIRY_ANSWERS, signal), 0) };
}
