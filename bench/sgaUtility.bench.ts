/**
 * `npm run bench -- sgaUtility`: the README's table of public-data-assisted answering (issue 15)
 * — ROUGE-L of private answers on the clinic summaries sample (generation: note → one-line
 * summary) with the reference learner the app answers with, for SGA (selection by the model,
 * and nearest), keyword aggregation with and without public data, beside zero-shot (ε = 0) and
 * each method's ensemble without noise (ε = ∞, not private), at ε = 1, 3, 8 for a batch of
 * QUERIES held-out notes (ε of the whole batch, δ = 1e-6, calibrated by the answering pricing).
 * The vault, the subject-level private pool and the public split are the app's own; the size
 * q is computed from is the exact one (a bench, not a release).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { answerBatch } from '../core/icl/answering/answerBatch';
import { zeroShotAnswer, type AnswerSettings } from '../core/icl/answering/answerQuery';
import { rougeL } from '../core/icl/rouge';
import { cryptoRandom } from '../core/random/cryptoRandom';
import { priceAnswers } from '../electron/services/answering/answerPricing';
import { answerTask, answerTemplate, CANDIDATE_TEMPERATURE } from '../electron/services/answering/answeringService';
import { publicExamples } from '../electron/services/answering/publicExamples';
import { PUBLIC_EXAMPLES_LIMIT, publicDemonstrations, sgaOptions, usesPublicData } from '../electron/services/answering/sgaSettings';
import { callMethod } from '../electron/services/api';
import { ServiceContext } from '../electron/services/context';
import { ensureDataDir } from '../electron/services/dataDir';
import { appDatabase } from '../electron/services/db/appDatabase';
import { loadReferenceLearner } from '../electron/services/model/referenceResources';
import { vaultSource } from '../electron/services/synthesis/vaultSource';
import { answerRequestSchema, type AnswerRequest } from '../electron/shared/api/answering';

const QUERIES = 60;
const EPSILONS = [1, 3, 8];
const SHAPE = { ensemble: 10, shots: 2, delta: 1e-6 };
const CONFIGS: Record<string, Partial<AnswerRequest>> = {
  'SGA, model selection': { aggregation: 'sga', sgaSelection: 'model' },
  'SGA, nearest': { aggregation: 'sga', sgaSelection: 'nearest' },
  'keyword, public data': { aggregation: 'keyword' },
  'keyword, no public data': { aggregation: 'keyword', publicData: false },
};
const round = (x: number) => +x.toFixed(3);

export async function run(): Promise<object> {
  const dir = mkdtempSync(join(tmpdir(), 'veil-sga-utility-'));
  const ctx = new ServiceContext(ensureDataDir(join(dir, 'data')), 'cli');
  try {
    const created = await callMethod(ctx, 'vault.createSample', { kind: 'clinic-summaries' });
    const source = await vaultSource(ctx);
    const dataset = await source.dataset(created.name ?? 'Clinic summaries sample');
    const pool = await source.pool(dataset, undefined);
    const demos = publicDemonstrations(await publicExamples(await appDatabase(ctx), source, dataset, PUBLIC_EXAMPLES_LIMIT));
    const heldOut = (await source.examples(dataset, 'held-out', QUERIES)).filter((e) => e.output);
    const queries = heldOut.map((e) => e.text);
    const score = (answers: readonly string[]) => round(answers.reduce((s, a, i) => s + rougeL(a, heldOut[i].output!), 0) / answers.length);
    const model = await loadReferenceLearner();
    const settingsFor = (request: AnswerRequest, noise: number | null, q: number, ptrDelta: number): AnswerSettings => ({
      model, pool, template: answerTemplate(dataset, request), task: answerTask(dataset), method: request.aggregation!, ensemble: request.ensemble, shots: request.shots,
      q, noise, ptrDelta, keywords: request.keywords, candidates: request.candidates, candidateTemperature: CANDIDATE_TEMPERATURE, maxTokens: request.maxTokens, random: cryptoRandom,
      ...(usesPublicData(request.aggregation!, request, demos.length) ? { publicExamples: demos } : {}),
      ...(request.aggregation === 'sga' ? { sga: sgaOptions(request) } : {}),
    });
    const base = answerRequestSchema.parse({ dataset: dataset.name, epsilon: 1, ensemble: SHAPE.ensemble, shots: SHAPE.shots, delta: SHAPE.delta, queries });
    const zeroShot: string[] = [];
    for (const query of queries) zeroShot.push(await zeroShotAnswer(settingsFor({ ...base, aggregation: 'keyword' }, null, 0, 0), query));
    const table: Record<string, Record<string, number>> = {};
    for (const [name, config] of Object.entries(CONFIGS)) {
      const row: Record<string, number> = {};
      for (const epsilon of EPSILONS) {
        const request = { ...base, ...config, epsilon };
        const priced = priceAnswers({ request, dataset, units: pool.units, queries: queries.length, budget: null, publicExamples: demos.length });
        process.stderr.write(`sgaUtility: ${name}, ε = ${epsilon}…\n`);
        row[`ε=${epsilon}`] = score((await answerBatch(settingsFor(request, priced.parameter, priced.plan.q, priced.ptrDelta), queries)).results.map((r) => r.answer));
      }
      const priced = priceAnswers({ request: { ...base, ...config }, dataset, units: pool.units, queries: queries.length, budget: null, publicExamples: demos.length });
      row['ε=∞ (not private)'] = score((await answerBatch(settingsFor({ ...base, ...config }, null, priced.plan.q, 0), queries)).results.map((r) => r.answer));
      table[name] = row;
    }
    return {
      setup: { sample: 'clinic-summaries', model: 'reference learner', heldOut: queries.length, privateUnits: pool.units, publicExamples: demos.length, ...SHAPE, epsilonIsPer: `batch of ${queries.length} queries`, sga: 'depth 2, k = 3 candidates' },
      rougeL: { 'zero-shot (ε = 0)': score(zeroShot), ...table },
    };
  } finally {
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
