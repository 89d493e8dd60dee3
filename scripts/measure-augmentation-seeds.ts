/**
 * How close the augmentation seeds (core/icl/augmentation) come to the private split: on the
 * clinic-summaries sample with the reference learner's embeddings, the mean over private
 * subjects of the best cosine between the subject's point and a seed — for seeds from DPM centres
 * at ε (δ = 1e-5, depth 2, calibrated as the job does), exact clustering (ε = ∞, not private) and
 * uniformly drawn public examples (ε = 0). Run: `npx tsx scripts/measure-augmentation-seeds.ts [RUNS]`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { augmentationSeeds, unitPoint } from '../core/icl/augmentation/augmentationSeeds';
import { clusterAnswers, DEFAULT_SGA_SETTINGS, sgaCandidates } from '../core/icl/answering/sga/semanticGroups';
import { cryptoRandom } from '../core/random/cryptoRandom';
import { sampleWithoutReplacement } from '../core/random/uniform';
import { priceAugmentation } from '../electron/services/augmentation/augmentationPricing';
import { callMethod } from '../electron/services/api';
import { ServiceContext } from '../electron/services/context';
import { ensureDataDir } from '../electron/services/dataDir';
import { getModelService } from '../electron/services/model/modelHandlers';

const RUNS = Number(process.argv[2] ?? 20);
const EPSILONS = [0.25, 0.5, 1, 2];

const cosine = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let dot = 0, na = 0, nb = 0;
  for (let i = 0; i < a.length; i++) [dot, na, nb] = [dot + a[i] * b[i], na + a[i] ** 2, nb + b[i] ** 2];
  return dot / Math.sqrt(na * nb || 1);
};
const coverage = (points: Float64Array[], seeds: ArrayLike<number>[]) =>
  seeds.length === 0 ? 0 : points.reduce((sum, p) => sum + Math.max(...seeds.map((s) => cosine(p, s))), 0) / points.length;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'veil-measure-augment-'));
  const ctx = new ServiceContext(ensureDataDir(join(dir, 'data')), 'cli');
  try {
    const { name } = await callMethod(ctx, 'vault.createSample', { kind: 'clinic-summaries' });
    const rows = async (split: 'private' | 'public') => {
      const out = [];
      for (let offset = 0; ; offset += 1000) {
        const page = await callMethod(ctx, 'vault.records', { dataset: name, filter: { splits: [split] }, offset, limit: 1000 });
        out.push(...page.rows);
        if (out.length >= page.total) return out;
      }
    };
    const model = await (await getModelService(ctx)).current();
    const privateRows = await rows('private');
    const publicRows = await rows('public');
    const privateEmbeddings = await model.embed(privateRows.map((r) => r.text));
    const publicEmbeddings = await model.embed(publicRows.map((r) => r.text));
    const bySubject = new Map<string, Float32Array[]>();
    privateRows.forEach((r, i) => bySubject.set(r.subject ?? `r${r.id}`, [...(bySubject.get(r.subject ?? `r${r.id}`) ?? []), privateEmbeddings[i]].slice(0, 3)));
    const points = [...bySubject.values()].map(unitPoint);
    const k = 2 ** DEFAULT_SGA_SETTINGS.depth;
    const lines = [`clinic-summaries: ${points.length} private subjects, ${publicRows.length} public examples, ${RUNS} runs each; mean best cosine of a subject to a seed`];
    const random = mean(Array.from({ length: RUNS }, () => coverage(points, sampleWithoutReplacement(cryptoRandom, publicEmbeddings, k))));
    lines.push(`ε = 0 (${k} uniform public examples): ${random.toFixed(4)}`);
    for (const epsilon of EPSILONS) {
      const plan = priceAugmentation({ dataset: name, epsilon, delta: 1e-5, examples: 1, depth: DEFAULT_SGA_SETTINGS.depth, maxTokens: 8 }, points.length, null);
      const runs = Array.from({ length: RUNS }, () => augmentationSeeds(points, publicEmbeddings, plan.rho, cryptoRandom).seeds);
      lines.push(`ε = ${epsilon} (ρ = ${plan.rho.toPrecision(3)}): ${mean(runs.map((s) => coverage(points, s.map((i) => publicEmbeddings[i])))).toFixed(4)}, ${mean(runs.map((s) => s.length)).toFixed(2)} seeds`);
    }
    const exact = sgaCandidates(clusterAnswers(points, publicEmbeddings, DEFAULT_SGA_SETTINGS, null, cryptoRandom), k);
    lines.push(`ε = ∞ (exact clustering, not private): ${coverage(points, exact.map((i) => publicEmbeddings[i])).toFixed(4)}, ${exact.length} seeds`);
    console.log(lines.join('\n'));
  } finally {
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
