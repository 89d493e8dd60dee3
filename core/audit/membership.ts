/**
 * Who is a member: the audit samples members and non-members from the dataset, balanced
 * (1:1) or unbalanced (1:4 members to non-members, as in Joo et al.).
 *
 * - A plain few-shot prompt (the non-private baseline): the audit builds several prompts of
 *   `shots` real private records each; a prompt's members are its demonstrations and its
 *   non-members are other private records, drawn from the same split and never in that
 *   prompt. All sets are disjoint. Pooling the prompts gives enough candidates.
 * - A prompt built from a pool (a DP synthetic prompt: every private record its pools held):
 *   members are private records, non-members are held-out records (never in any pool).
 */
import type { RandomSource } from '../random/randomSource';
import { sampleWithoutReplacement } from '../random/uniform';
import type { Candidate } from './attacks';

export type Balance = 'balanced' | 'unbalanced';
/** Non-members per member. */
const nonMembersPerMember = (balance: Balance) => (balance === 'balanced' ? 1 : 4);

export interface AuditCandidate extends Candidate {
  member: boolean;
}

export interface BaselinePrompt {
  demonstrations: Candidate[];
  candidates: AuditCandidate[];
}

/** Prompts of `shots` members each, with their non-members, until `members` members (or the records run out). */
export function baselineDesign(records: readonly Candidate[], shots: number, members: number, balance: Balance, random: RandomSource): BaselinePrompt[] {
  const perPrompt = shots * (1 + nonMembersPerMember(balance));
  const prompts = Math.min(Math.ceil(members / shots), Math.floor(records.length / perPrompt));
  if (prompts < 1) throw new Error(`the private split has ${records.length < perPrompt ? 'too few records' : 'no records'} for one ${shots}-shot prompt and its non-members (${perPrompt} needed)`);
  const drawn = sampleWithoutReplacement(random, records, prompts * perPrompt);
  return Array.from({ length: prompts }, (_, p) => {
    const block = drawn.slice(p * perPrompt, (p + 1) * perPrompt);
    const demonstrations = block.slice(0, shots);
    return {
      demonstrations,
      candidates: [...demonstrations.map((c) => ({ ...c, member: true })), ...block.slice(shots).map((c) => ({ ...c, member: false }))],
    };
  });
}

/** Members from the pool's records, non-members from records no pool held. */
export function poolDesign(pool: readonly Candidate[], outside: readonly Candidate[], members: number, balance: Balance, random: RandomSource): AuditCandidate[] {
  const ratio = nonMembersPerMember(balance);
  const count = Math.min(members, pool.length, Math.floor(outside.length / ratio));
  if (count < 1) throw new Error('need private records (members) and held-out records (non-members) to audit this target');
  return [
    ...sampleWithoutReplacement(random, pool, count).map((c) => ({ ...c, member: true })),
    ...sampleWithoutReplacement(random, outside, count * ratio).map((c) => ({ ...c, member: false })),
  ];
}
