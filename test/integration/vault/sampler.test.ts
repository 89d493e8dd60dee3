/** The sampling API on real SQLite: Poisson rates, per-subject caps, label pools, the sample dataset. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../../../core/random/seededRandom';
import { callMethod } from '../../../electron/services/api';
import type { ServiceContext } from '../../../electron/services/context';
import { getVaultService } from '../../../electron/services/vault/vaultHandlers';
import { isBackgroundEmail, loadSpamAssassin } from '../../../scripts/model/spamAssassin';
import { tempServices, type TempServices } from '../../helpers/services';

let services: TempServices;
let ctx: ServiceContext;
beforeAll(async () => {
  services = tempServices('veil-sampler-');
  ctx = services.ctx;
  await callMethod(ctx, 'vault.createDataset', { name: 'people', labels: ['a', 'b'], privacyUnit: 'subject', subjectCap: 2 });
  // 300 subjects with 1–4 records each, labels alternating by subject; 50 public records.
  const records = Array.from({ length: 300 }, (_, s) =>
    Array.from({ length: 1 + (s % 4) }, (_, k) => ({ text: `subject ${s} note ${k}`, label: s % 2 ? 'b' : 'a', subject: `s${s}` })),
  ).flat();
  await callMethod(ctx, 'vault.addRecords', { dataset: 'people', records: [...records, ...Array.from({ length: 50 }, (_, i) => ({ text: `public ${i}`, label: 'a' as const, split: 'public' as const }))] });
});
afterAll(() => services?.remove());

describe('vault sampler', () => {
  it('samples subjects at rate q with each subject capped and kept on one teacher', async () => {
    const vault = await getVaultService(ctx);
    const dataset = await vault.dataset('people');
    const pool = await vault.pool(dataset, undefined);
    expect(pool.units).toBe(300);
    const random = seededRandom(11);
    const q = 0.1;
    let sampled = 0;
    const draws = 400;
    for (let i = 0; i < draws; i++) {
      const groups = await pool.sampleTeachers(q, 5, random);
      for (const g of groups) {
        const subjects = new Map<string, number>();
        for (const { text } of g) {
          const s = text.split(' ')[1];
          subjects.set(s, (subjects.get(s) ?? 0) + 1);
        }
        for (const n of subjects.values()) expect(n).toBeLessThanOrEqual(2);
        sampled += subjects.size;
      }
      // A subject never appears on two teachers.
      const seen = groups.flatMap((g) => [...new Set(g.map((r) => r.text.split(' ')[1]))]);
      expect(new Set(seen).size).toBe(seen.length);
    }
    // Sampled subjects per draw: Binomial(300, 0.1), mean 30, sd √27 ≈ 5.2; the mean of 400
    // draws has sd 0.26, so ±1.3 is a 5-sigma band.
    expect(Math.abs(sampled / draws - 30)).toBeLessThan(1.3);
  });

  it('includes every unit with frequency q, record or subject, and returns text with label', async () => {
    const vault = await getVaultService(ctx);
    await callMethod(ctx, 'vault.createDataset', { name: 'rows', labels: ['a', 'b'] });
    await callMethod(ctx, 'vault.addRecords', { dataset: 'rows', records: Array.from({ length: 300 }, (_, i) => ({ text: `row ${i} x`, label: i % 2 ? 'b' : 'a' })) });
    const random = seededRandom(29);
    const [q, draws] = [0.2, 2000];
    for (const name of ['rows', 'people']) {
      const pool = await vault.pool(await vault.dataset(name), undefined);
      const counts = new Map<string, number>();
      for (let d = 0; d < draws; d++) {
        for (const unit of await pool.sample(q, random)) {
          const id = unit[0].text.split(' ')[1];
          expect(unit.every((r) => r.text.split(' ')[1] === id && r.label === (Number(id) % 2 ? 'b' : 'a'))).toBe(true);
          expect(unit.length).toBeLessThanOrEqual(name === 'people' ? 2 : 1);
          counts.set(id, (counts.get(id) ?? 0) + 1);
        }
      }
      // Each of the 300 units is in Binomial(2000, 0.2) draws: mean 400, sd 17.9. A 5-sigma band
      // (±90) holds for all 300 with probability 1 − 2·10⁻⁴; a unit never sampled would read 0.
      expect(counts.size).toBe(300);
      for (const n of counts.values()) expect(Math.abs(n - q * draws)).toBeLessThan(90);
    }
  }, 300_000); // 4,000 samples read from SQLite: a minute and more on a loaded 2-core machine

  it('restricts a pool to one label of the private split', async () => {
    const vault = await getVaultService(ctx);
    const pool = await vault.pool(await vault.dataset('people'), 'a');
    expect(pool.units).toBe(150);
    const groups = await pool.sampleTeachers(1, 3, seededRandom(3));
    const texts = groups.flat().map((r) => r.text);
    expect(texts.every((t) => Number(t.split(' ')[1]) % 2 === 0 && !t.startsWith('public'))).toBe(true);
    // Each record carries its label (private answering's teachers show it).
    expect(groups.flat().every((r) => r.label === 'a')).toBe(true);
  });

  it('re-indexes after the dataset changes', async () => {
    const vault = await getVaultService(ctx);
    const before = (await vault.pool(await vault.dataset('people'), 'b')).units;
    await callMethod(ctx, 'vault.addRecords', { dataset: 'people', records: [{ text: 'new subject note', label: 'b', subject: 'new' }] });
    expect((await vault.pool(await vault.dataset('people'), 'b')).units).toBe(before + 1);
  });
});

describe('sample dataset', () => {
  it('holds spam and ham e-mails split three ways, none from the learner background corpus', async () => {
    const sample = await callMethod(ctx, 'vault.createSample', {});
    expect(sample.labels).toEqual(['spam', 'ham']);
    expect(sample.counts.heldOut).toBeGreaterThanOrEqual(200);
    expect(sample.counts.public).toBeGreaterThan(50);
    expect(sample.counts.private).toBeGreaterThan(sample.counts.heldOut);
    const background = new Set(loadSpamAssassin(600).filter(isBackgroundEmail).map((e) => e.text));
    const { rows } = await callMethod(ctx, 'vault.records', { dataset: sample.id, limit: 1000 });
    // A record is the one-line subject and body, then the personal-data headers, one per line.
    const bodies = rows.map((r) => r.text.split('\n')[0]);
    expect(rows.filter((r) => /\nFrom: .+/.test(r.text)).length).toBe(rows.length);
    expect(bodies.some((body) => background.has(body))).toBe(false);
  }, 60_000);
});
