/**
 * The answering audit target with the reference learner on a private split of randomly
 * labelled records of random words (a non-member's label cannot be predicted: the teacher
 * guesses; a member's label is in the teacher's prompt). One teacher of 40 shots with q = 1
 * holds every member: without noise (σ = null, exact histogram) the label attack finds
 * members; at σ = 5 (ε ≈ 1.06 per query at δ = 1e-5 without subsampling, ℓ2 sensitivity √2)
 * the noise hides them. Seeded source opted in for the test (privatePathRandom.ts).
 */
import { describe, expect, it } from 'vitest';
import { answeringTarget, voteLogShares } from '../../../../core/audit/answeringTarget';
import { runAttacks } from '../../../../core/audit/runAudit';
import type { AuditCandidate } from '../../../../core/audit/membership';
import { softmaxAt } from '../../../../core/audit/attacks';
import { inMemoryPool } from '../../../../core/icl/privatePool';
import { defaultTemplate } from '../../../../core/icl/prompts';
import { loadReferenceLearner } from '../../../../electron/services/model/referenceResources';
import { NonCryptographicRandomError, allowSeededOnPrivatePath } from '../../../../core/random/privatePathRandom';
import { seededRandom } from '../../../../core/random/seededRandom';
import { answerQuery, type AnswerSettings } from '../../../../core/icl/answering/answerQuery';
import { answerFakeModel } from '../icl/answering/answerFakeModel';

const LABELS = ['ham', 'spam'];
const WORDS = 'apple river stone cloud market garden silver window engine forest planet coffee bridge winter summer yellow orange purple doctor farmer castle dragon pencil rocket violin tunnel island desert harbor jungle meadow lantern mirror needle ocean pepper quartz ribbon saddle tiger velvet walnut zipper anchor basket candle dolphin feather glacier hammer igloo jacket kettle ladder magnet napkin oyster parrot quiver rabbit shovel turtle umbrella vessel wagon yogurt zebra'.split(' ');

function records(n: number, seed: number) {
  const r = seededRandom(seed);
  const word = () => WORDS[Math.floor(r.nextFloat() * WORDS.length)];
  return Array.from({ length: n }, () => ({ text: Array.from({ length: 8 }, word).join(' '), label: LABELS[Math.floor(r.nextFloat() * 2)] }));
}

async function labelAuroc(sigma: number | null, seed: number) {
  const model = await loadReferenceLearner();
  const members = records(40, seed);
  const nonMembers = records(40, seed + 1);
  const random = allowSeededOnPrivatePath(seededRandom(seed + 2), 'test');
  const target = answeringTarget({
    model, pool: inMemoryPool(members), template: defaultTemplate('Classify each text as one of: ham, spam.'), task: { kind: 'classification', labels: LABELS },
    method: 'vote', ensemble: 1, shots: 40, q: 1, noise: sigma, ptrDelta: 0, keywords: 1, candidates: 1, candidateTemperature: 1, maxTokens: 8, random,
  });
  const candidates: AuditCandidate[] = [...members.map((m) => ({ ...m, member: true })), ...nonMembers.map((m) => ({ ...m, member: false }))];
  const [result] = await runAttacks({ groups: [{ target, candidates }], attacks: ['label'], model, labels: LABELS }, seededRandom(seed + 3), { replicates: 1000, level: 0.99 });
  return result.metrics;
}

describe('answeringTarget', () => {
  it('scores the released vote share of the true label (negative noisy counts count as 0)', () => {
    expect(softmaxAt(voteLogShares([3, 1]), 0)).toBeCloseTo(0.75, 12);
    expect(softmaxAt(voteLogShares([-2, 4]), 0)).toBe(0);
    expect(softmaxAt(voteLogShares([-1, 0]), 1)).toBe(0.5); // nothing positive: uniform
  });

  it('refuses a seeded source unless a test opts in', () => {
    const settings = { task: { kind: 'classification', labels: LABELS }, random: seededRandom(1) } as unknown as Parameters<typeof answeringTarget>[0];
    expect(() => answeringTarget(settings)).toThrow(NonCryptographicRandomError);
  });

  it('finds members of a non-private ensemble and not of ε = 1 noise (99 % intervals)', async () => {
    const exact = await labelAuroc(null, 11);
    const noisy = await labelAuroc(5, 11);
    expect(exact.aurocInterval.lower).toBeGreaterThan(0.55);
    expect(noisy.aurocInterval.lower).toBeLessThanOrEqual(0.5);
    expect(noisy.aurocInterval.upper).toBeGreaterThanOrEqual(0.5);
    expect(noisy.auroc).toBeLessThan(exact.auroc);
  }, 120_000);

  it('answers a generation query as answerQuery does and releases only the answer (repeat attack)', async () => {
    const calls: string[] = [];
    const settings = (seed: number): AnswerSettings => ({
      model: answerFakeModel(calls), pool: inMemoryPool(Array.from({ length: 20 }, (_, i) => ({ text: `q${i}`, output: 'paris capital seine' }))),
      template: defaultTemplate('Answer.'), task: { kind: 'generation' }, method: 'keyword', ensemble: 4, shots: 2, q: 0.5, noise: null,
      ptrDelta: 0, keywords: 2, candidates: 3, candidateTemperature: 1, maxTokens: 16, random: allowSeededOnPrivatePath(seededRandom(seed), 'test'),
    });
    const target = answeringTarget(settings(5));
    expect(target.classify).toBeUndefined();
    const released = await target.complete!('the first words of a candidate', 8);
    expect(released).toBe((await answerQuery({ ...settings(5), maxTokens: 8 }, 'the first words of a candidate')).result.answer);
    expect(calls.some((prompt) => prompt.includes('the first words of a candidate'))).toBe(true);
  });

  it('votes over its own label set only', async () => {
    const model = await loadReferenceLearner();
    const target = answeringTarget({
      model, pool: inMemoryPool(records(4, 1)), template: defaultTemplate('Classify.'), task: { kind: 'classification', labels: LABELS }, method: 'vote',
      ensemble: 1, shots: 4, q: 1, noise: null, ptrDelta: 0, keywords: 1, candidates: 1, candidateTemperature: 1, maxTokens: 8, random: allowSeededOnPrivatePath(seededRandom(2), 'test'),
    });
    expect(target.complete).toBeUndefined();
    await expect(target.classify!('some text', ['spam', 'ham'])).rejects.toThrow(/public label set/);
    expect(await target.classify!('some text', LABELS)).toHaveLength(2);
  });
});
