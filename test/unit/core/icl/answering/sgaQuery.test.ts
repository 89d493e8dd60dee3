import { describe, expect, it } from 'vitest';
import { answerBatch } from '../../../../../core/icl/answering/answerBatch';
import { mechanismEvent } from '../../../../../core/icl/answering/answerEvents';
import { answerQuery, type AnswerSettings } from '../../../../../core/icl/answering/answerQuery';
import { DEFAULT_SGA_SETTINGS } from '../../../../../core/icl/answering/sga/semanticGroups';
import type { SgaOptions } from '../../../../../core/icl/answering/sgaQuery';
import { selectCandidate, selectionPrompt } from '../../../../../core/icl/answering/sgaSelection';
import { inMemoryPool } from '../../../../../core/icl/privatePool';
import { defaultTemplate } from '../../../../../core/icl/prompts';
import { allowSeededOnPrivatePath } from '../../../../../core/random/privatePathRandom';
import { seededRandom } from '../../../../../core/random/seededRandom';
import { answerFakeModel } from './answerFakeModel';

// answerFakeModel: a teacher answers with its demonstrations' outputs, so private teachers repeat
// private outputs (all holding "secretword") and public teachers public ones.
const privateRecords = Array.from({ length: 60 }, (_, i) => ({ text: `note ${i}`, output: i % 3 ? 'river flood secretword' : 'bridge toll secretword' }));
const publicExamples = ['river flood warning', 'bridge toll increase', 'harbour lighthouse', 'city council vote'].map((output, i) => ({ text: `public ${i}`, output }));

function sgaSettings(sga: Partial<SgaOptions> = {}, overrides: Partial<AnswerSettings> = {}): AnswerSettings {
  return {
    model: answerFakeModel(), pool: inMemoryPool(privateRecords), template: defaultTemplate('Summarise.'), task: { kind: 'generation' },
    method: 'sga', ensemble: 12, shots: 1, q: 0.2, noise: null, ptrDelta: 0, keywords: 3, candidates: 3, candidateTemperature: 1, maxTokens: 16,
    publicExamples, sga: { dpm: DEFAULT_SGA_SETTINGS, candidates: 3, selection: 'nearest', ...sga },
    random: allowSeededOnPrivatePath(seededRandom(11), 'test'), ...overrides,
  };
}

describe('semantic group aggregation (answerSgaQuery)', () => {
  it('candidates and the released answer are always public answers, never a private one', async () => {
    const publicTexts = new Set<string>();
    // Every public teacher's answer is one public example's output (shots 1).
    for (const e of publicExamples) publicTexts.add(e.output);
    for (const [seed, noise] of [[1, null], [2, 0.5], [3, 5], [4, 50]] as const) {
      for (const selection of ['nearest', 'model'] as const) {
        const { result } = await answerQuery(sgaSettings({ selection }, { noise, random: allowSeededOnPrivatePath(seededRandom(seed), 'test') }), 'what happened?');
        expect(result.candidates!.length).toBeGreaterThan(0);
        for (const c of result.candidates!) expect(publicTexts.has(c)).toBe(true);
        expect(result.candidates![result.selected!]).toBe(result.answer);
        expect(JSON.stringify(result)).not.toContain('secretword');
      }
    }
  });

  it('the selection prompt holds the query and the candidates only (never a private record)', async () => {
    const calls: string[] = [];
    const { result } = await answerQuery(sgaSettings({ selection: 'model' }, { model: answerFakeModel(calls), q: 1 }), 'what happened?');
    expect(result.candidates!.length).toBeGreaterThan(1); // two private groups: the model is asked
    const selections = calls.filter((p) => p.includes('Candidate answers:'));
    expect(selections).toHaveLength(1);
    for (const p of selections) expect(p).not.toMatch(/secretword|note \d/);
  });

  it('reports exactly the event a batch charges (sgaMechanismEvent at ρ and depth), and none without noise', async () => {
    const charged = await answerBatch(sgaSettings({ dpm: { ...DEFAULT_SGA_SETTINGS, depth: 3 } }, { noise: 0.7 }), ['a', 'b']);
    expect(charged.results).toHaveLength(2);
    const { event } = await answerQuery(sgaSettings({ dpm: { ...DEFAULT_SGA_SETTINGS, depth: 3 } }, { noise: 0.7 }), 'a');
    expect(event).toEqual(mechanismEvent('sga', 0.7, 0, 0.5, 3));
    expect((await answerQuery(sgaSettings(), 'a')).event).toBeNull();
  });

  it('the exact clustering (ε = ∞) with nearest selection releases the public answer closest to the private majority', async () => {
    const { result } = await answerQuery(sgaSettings({ selection: 'nearest', candidates: 1 }, { q: 1 }), 'what happened?');
    expect(result.answer).toBe('river flood warning'); // two thirds of the private notes say "river flood"
  });

  it('refuses without public examples and for a classification task', async () => {
    await expect(answerQuery(sgaSettings({}, { publicExamples: [] }), 'a')).rejects.toThrow('needs public examples');
    await expect(answerQuery(sgaSettings({}, { task: { kind: 'classification', labels: ['a'] } }), 'a')).rejects.toThrow();
  });
});

describe('SGA selection', () => {
  it('nearest takes the largest cluster’s candidate without asking the model; model picks by the scored numbers', async () => {
    const asked: string[][] = [];
    const model = { ...answerFakeModel(), scoreLabels: async (_p: string, labels: readonly string[]) => (asked.push([...labels]), labels.map((l) => (l === ' 2' ? 0 : -1))) };
    const args = { model, template: defaultTemplate('Summarise.') };
    expect(await selectCandidate({ ...args, selection: 'nearest' }, 'q', ['a', 'b'])).toBe(0);
    expect(asked).toEqual([]);
    expect(await selectCandidate({ ...args, selection: 'model' }, 'q', ['a', 'b'])).toBe(1);
    expect(asked).toEqual([[' 1', ' 2']]);
    expect(await selectCandidate({ ...args, selection: 'model' }, 'q', ['only'])).toBe(0);
    expect(selectionPrompt(defaultTemplate('S.'), 'the query', ['x', ''])).toMatch(/Text: the query\nCandidate answers:\n1\. x\n2\. \(empty answer\)\nPick the most accurate answer/);
  });
});
