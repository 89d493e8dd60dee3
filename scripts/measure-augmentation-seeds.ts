/**
 * How close the augmentation seeds (core/icl/augmentation) come to the private split: on the
 * clinic-summaries sample with the reference learner's embeddings, the mean over private
 * subjects of the best cosine between the subject's point and a seed — for seeds from DPM centres
 * at ε (δ = 1e-5, depth 2, calibrated as the job does), exact clustering (ε = ∞, not private) and
 * uniformly drawn public examples (ε = 0); with the sample's public split, and with a thin one
 * (20 in-domain notes among 200 e-mails of the spam sample, cut to 1,000 characters). Run: `npx tsx scripts/measure-augmentation-seeds.ts [RUNS]`.
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
    const lines = [`clinic-summaries: ${points.length} private subjects; ${RUNS} runs each; mean best cosine of a subject to a seed (in-domain share of the seeds)`];
    // A thin public set: 20 in-domain notes among 200 off-domain e-mails (the spam sample).
    const spam = await callMethod(ctx, 'vault.createSample', { kind: 'spam' });
    const mail = (await callMethod(ctx, 'vault.records', { dataset: spam.name, limit: 200 })).rows;
    const thin = [...publicEmbeddings.slice(0, 20), ...(await model.embed(mail.map((r) => r.text.slice(0, 1000))))];
    for (const [label, candidates, inDomain] of [[`${publicRows.length} in-domain public examples`, publicEmbeddings, publicEmbeddings.length], ['20 in-domain + 200 e-mails', thin, 20]] as const) {
      lines.push(`public: ${label}`);
      console.error(`measuring: ${label}`);
      const row = (name: string, runs: number[][]) =>
        lines.push(`  ${name}: ${mean(runs.map((s) => coverage(points, s.map((i) => candidates[i])))).toFixed(4)} (${(100 * mean(runs.map((s) => (s.length === 0 ? 0 : s.filter((i) => i < inDomain).length / s.length)))).toFixed(0)} % in domain), ${mean(runs.map((s) => s.length)).toFixed(2)} seeds`);
      row(`ε = 0 (${k} uniform public examples)`, Array.from({ length: RUNS }, () => sampleWithoutReplacement(cryptoRandom, candidates.map((_, i) => i), k)));
      for (const epsilon of EPSILONS) {
        const plan = priceAugmentation({ dataset: name, epsilon, delta: 1e-5, examples: 1, depth: DEFAULT_SGA_SETTINGS.depth, maxTokens: 8 }, points.length, null, candidates.length);
        row(`ε = ${epsilon} (ρ = ${plan.rho.toPrecision(3)})`, Array.from({ length: RUNS }, () => augmentationSeeds(points, candidates, plan.rho, cryptoRandom).seeds));
      }
      row('ε = ∞ (exact clustering, not private)', [sgaCandidates(clusterAnswers(points, candidates, DEFAULT_SGA_SETTINGS, null, cryptoRandom), k)]);
    }
    console.log(lines.join('\n'));
  } finally {
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
