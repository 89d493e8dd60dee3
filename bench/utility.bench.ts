/**
 * `npm run bench -- utility`: the utility table of the README — on both samples, a default
 * DP synthesis job at ε = 4 (δ default) with the reference learner the app uses for the
 * dataset (its own public background), median of 5 runs (CSPRNG) of the utility check on
 * 200 held-out records: DP prompt, zero-shot, real public demonstrations, majority label.
 */
import { cryptoRandom } from '../core/random/cryptoRandom';
import { measureSample, sampleLearner, sampleSetup, type SampleName, type SampleUtility } from './sampleUtility';
import { median } from './stats';

const RUNS = 5;
const round = (x: number) => +x.toFixed(3);

function summary(runs: SampleUtility[]) {
  const of = (pick: (r: SampleUtility) => number) => round(median(runs.map(pick)));
  return {
    runs: runs.length,
    heldOut: runs[0].examples,
    balancedAccuracy: { dpPrompt: of((r) => r.balanced.synthetic), zeroShot: of((r) => r.balanced.zeroShot), realPublic: of((r) => r.balanced.realPublic), majority: of((r) => r.balanced.majority) },
    accuracy: { dpPrompt: of((r) => r.accuracy.synthetic), zeroShot: of((r) => r.accuracy.zeroShot), realPublic: of((r) => r.accuracy.realPublic), majority: of((r) => r.accuracy.majority) },
    perRunBalancedDp: runs.map((r) => round(r.balanced.synthetic)),
    exampleDemonstrations: runs[0].demonstrations,
  };
}

export async function run(): Promise<object> {
  const out: Record<string, object> = { setup: { epsilon: 4, delta: 'default', settings: 'synth.start defaults', runs: RUNS, heldOut: 200 } };
  for (const name of ['spam', 'clinic'] as SampleName[]) {
    const setup = sampleSetup(name);
    const model = await sampleLearner(setup);
    const runs: SampleUtility[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await measureSample(setup, model, cryptoRandom));
    out[name] = summary(runs);
  }
  return out;
}
