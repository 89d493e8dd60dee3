/**
 * A whole synthetic few-shot prompt: the pools' demonstrations in turn (labels interleaved),
 * with progress (token steps and demonstrations done / total) and cancellation. The cost
 * is fixed in advance (synthesisPlan.ts) and does not depend on what this run did; each
 * pool is sampled at the rate its plan was priced at.
 */
import type { LanguageModel } from '../model/languageModel';
import { requirePrivateRandom } from '../random/privatePathRandom';
import type { RandomSource } from '../random/randomSource';
import { generateDemonstration, samplingRate, type StepTiming, type SynthesisShape } from './demonstration';
import type { PrivatePool } from './privatePool';
import type { Demonstration, PromptTemplate } from './prompts';
import { poolSteps, writesOutput, type PoolPlan } from './synthesisPlan';
import type { TeacherTally } from './teacherEvaluation';
import type { TokenAggregator } from './tokenAggregator';

export interface SynthesisProgress {
  demonstrationsDone: number;
  demonstrationsTotal: number;
  /** Token steps run so far, and the most there can be (the charged steps, synthesisPlan.ts). */
  stepsDone: number;
  stepsMax: number;
  /** The demonstration being written, as generated so far (synthetic, already private). */
  current: { label?: string; text: string };
}

export interface SynthesisRequest {
  model: LanguageModel;
  template: PromptTemplate;
  pools: readonly { plan: PoolPlan; pool: PrivatePool }[];
  shape: SynthesisShape;
  aggregator: TokenAggregator;
  random: RandomSource;
  signal?: AbortSignal;
  onProgress?: (progress: SynthesisProgress) => void;
  timing?: StepTiming;
  /** Counts teacher evaluations and substitutions (teacherEvaluation.ts); read it only after the job. */
  teacherTally?: TeacherTally;
}

export async function synthesizeDemonstrations(req: SynthesisRequest): Promise<Demonstration[]> {
  requirePrivateRandom(req.random, 'synthesis');
  const demonstrationsTotal = req.pools.reduce((s, p) => s + p.plan.demonstrations, 0);
  const stepsMax = req.pools.reduce((s, p) => s + poolSteps(p.plan, req.shape), 0);
  const demonstrations: Demonstration[] = [];
  let stepsDone = 0;
  const report = (label: string | undefined, text: string) =>
    req.onProgress?.({ demonstrationsDone: demonstrations.length, demonstrationsTotal, stepsDone, stepsMax, current: { label, text } });
  // Round-robin over the pools (spam, ham, spam, ham…), so the released prompt interleaves
  // its labels; the order is public and each pool's demonstrations are charged alike.
  const rounds = Math.max(...req.pools.map((p) => p.plan.demonstrations));
  for (let round = 0; round < rounds; round++) {
    for (const { plan, pool } of req.pools.filter((p) => round < p.plan.demonstrations)) {
      const before = stepsDone;
      const { text, output, steps } = await generateDemonstration({
        ...req,
        pool,
        rate: samplingRate(req.shape, plan.units),
        label: plan.label,
        withOutput: writesOutput(plan),
        onToken: (soFar, step) => {
          stepsDone = before + step;
          report(plan.label, soFar);
        },
      });
      stepsDone = before + steps;
      demonstrations.push(output === undefined ? { text, label: plan.label } : { text, output });
      report(plan.label, text);
    }
  }
  return demonstrations;
}
