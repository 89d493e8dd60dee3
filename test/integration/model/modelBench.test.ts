/**
 * Smoke test of the model benchmark (`npm run bench -- model`): its measurement of one
 * synthesis step runs, at tiny sizes, on the reference learner and on a generated GGUF in
 * llama.cpp, and reports batched and sequential timings for cold and next-token steps.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { measureSampling, measureStep, type StepSetup } from '../../../bench/model.bench';
import type { LanguageModel } from '../../../core/model/languageModel';
import { getModelService } from '../../../electron/services/model/modelHandlers';
import { loadReferenceLearner } from '../../../electron/services/model/referenceResources';
import { workspace, type Workspace } from './modelFixture';

const TINY: StepSetup = { teachers: 3, promptTokens: 40, coldRepeats: 2, stepRepeats: 1 };

function expectTimings(result: Awaited<ReturnType<typeof measureStep>>): void {
  for (const part of [result.coldBatched, result.coldSequential, result.nextTokenBatched, result.nextTokenSequential]) {
    expect(part.medianMs).toBeGreaterThan(0);
    expect(part.runsMs.length).toBeGreaterThan(0);
  }
  expect(result.coldBatched.runsMs).toHaveLength(TINY.coldRepeats);
  expect(result.nextTokenBatched.runsMs).toHaveLength(TINY.stepRepeats);
  expect(Number.isFinite(result.coldSpeedup) && Number.isFinite(result.nextTokenSpeedup)).toBe(true);
}

describe('model benchmark', () => {
  let ws: Workspace;
  let llama: LanguageModel;
  beforeAll(async () => {
    ws = workspace('bench');
    const job = await ws.load(ws.gguf('bench.gguf'), { threads: 1, sequences: TINY.teachers, contextSize: 128 });
    expect(job.status).toBe('succeeded');
    llama = await (await getModelService(ws.ctx)).current();
  });
  afterAll(() => ws?.remove());

  it('measures a step on the reference learner', async () => {
    expectTimings(await measureStep(await loadReferenceLearner(), [257, 300, 400, 500], TINY));
  });

  it('measures a step on a generated GGUF in llama.cpp', async () => {
    expectTimings(await measureStep(llama, [259, 300, 400, 500], TINY));
  });

  it('measures both sampling modes and derives seconds per demonstration', async () => {
    const r = await measureSampling(llama, { teachers: TINY.teachers, promptTokens: 40, candidates: [259, 300, 400, 500], perTokenSteps: 1, decodeSteps: 2 });
    expect(r.perDemonstrationStep.runsMs).toHaveLength(2);
    expect(r.secondsPerDemonstration.perToken).toBeCloseTo((r.perTokenStep.medianMs / 1000) * 64, 1);
    expect(r.prefillTokensPerSecond).toBeGreaterThan(0);
    expect(r.batchedDecodeTokensPerSecond).toBeGreaterThan(0);
    expect(Number.isFinite(r.speedup.value)).toBe(true);
  });
});
