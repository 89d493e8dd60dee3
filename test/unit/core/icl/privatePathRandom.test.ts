/**
 * The private path refuses a non-cryptographic random source (issue 20 item 5): synthesis and
 * the teacher ensemble throw before the model or the pool is touched, unless a test opted that
 * very source in; no production file opts a source in.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { releasePoolSizes } from '../../../../core/icl/noisyPoolSizes';
import { generateDemonstration } from '../../../../core/icl/demonstration';
import { tangAggregator } from '../../../../core/icl/dpFewShot';
import { inMemoryPool, type PrivatePool } from '../../../../core/icl/privatePool';
import { defaultTemplate } from '../../../../core/icl/prompts';
import { synthesizeDemonstrations } from '../../../../core/icl/synthesize';
import { spreadShots } from '../../../../core/icl/synthesisPlan';
import { teacherVectors } from '../../../../core/icl/teacherEnsemble';
import { cryptoRandom } from '../../../../core/random/cryptoRandom';
import { allowSeededOnPrivatePath, NonCryptographicRandomError } from '../../../../core/random/privatePathRandom';
import { seededRandom } from '../../../../core/random/seededRandom';
import { fakeModel } from './fakeModel';

const template = defaultTemplate('Classify the e-mail.');
const shape = { teachers: 3, perTeacher: 1, topK: 3, maxTokens: 2 };
const texts = Array.from({ length: 12 }, (_, i) => `alpha note ${i}`);

/** A pool that counts how often it was sampled. */
function countingPool(): PrivatePool & { draws: number } {
  const inner = inMemoryPool(texts);
  const pool = { units: inner.units, draws: 0, sampleTeachers: (q: number, m: number, r: Parameters<PrivatePool['sampleTeachers']>[2]) => (pool.draws++, inner.sampleTeachers(q, m, r)) };
  return pool;
}

describe('private path randomness', () => {
  const aggregator = tangAggregator({ kind: 'gaussian', sigma: 1 });

  it('synthesis refuses a seeded source before sampling anything, and runs with the CSPRNG', async () => {
    const prompts: string[] = [];
    const pool = countingPool();
    const pools = spreadShots(1, ['spam']).map((p) => ({ plan: { ...p, units: texts.length }, pool }));
    const request = { model: fakeModel(prompts), template, pools, shape, aggregator };
    await expect(synthesizeDemonstrations({ ...request, random: seededRandom(1) })).rejects.toThrow(NonCryptographicRandomError);
    await expect(synthesizeDemonstrations({ ...request, random: seededRandom(1) })).rejects.toThrow(/synthesis needs the CSPRNG/);
    expect(pool.draws).toBe(0);
    expect(prompts).toHaveLength(0);
    await expect(generateDemonstration({ model: fakeModel(), template, pool, shape, aggregator, random: seededRandom(2) })).rejects.toThrow(NonCryptographicRandomError);
    await expect(teacherVectors({ model: fakeModel(), template, pool, soFar: '', candidates: [0, 1], q: 0.5, teachers: 3, perTeacher: 1, random: seededRandom(3) })).rejects.toThrow(
      NonCryptographicRandomError,
    );
    expect(pool.draws).toBe(0);
    // Any source that does not say it is cryptographic is refused, not just seededRandom's.
    const homemade = { cryptographic: false, nextUint32: () => 4, nextFloat: () => 0.5 };
    await expect(synthesizeDemonstrations({ ...request, random: homemade })).rejects.toThrow(NonCryptographicRandomError);
    const [demo] = await synthesizeDemonstrations({ ...request, random: cryptoRandom });
    expect(typeof demo.text).toBe('string');
    expect(pool.draws).toBeGreaterThan(0);
  });

  it('the pool size release (answering and synthesis) refuses a seeded source, and runs with the CSPRNG', () => {
    const request = { exact: [100], privacyUnit: 'record' as const, sizePublic: false };
    expect(() => releasePoolSizes({ ...request, random: seededRandom(5) })).toThrow(NonCryptographicRandomError);
    expect(releasePoolSizes({ ...request, random: cryptoRandom }).sizes[0]).toBeGreaterThanOrEqual(1);
  });

  it('accepts a seeded source only where a test opted in that very source', async () => {
    const opted = allowSeededOnPrivatePath(seededRandom(4), 'test');
    const run = (random: typeof opted) => generateDemonstration({ model: fakeModel(), template, pool: inMemoryPool(texts), shape, aggregator, random });
    await expect(run(opted)).resolves.toMatchObject({ steps: expect.any(Number) });
    await expect(run(seededRandom(4))).rejects.toThrow(NonCryptographicRandomError);
    expect(() => allowSeededOnPrivatePath(seededRandom(5), 'because' as never)).toThrow(/say why/);
  });

  it('no production source opts a seeded source in', () => {
    const root = join(import.meta.dirname, '../../../..');
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (/\.tsx?$/.test(name) && !path.endsWith('privatePathRandom.ts') && readFileSync(path, 'utf8').includes('allowSeededOnPrivatePath')) offenders.push(path);
      }
    };
    for (const dir of ['core', 'electron', 'renderer/src']) walk(join(root, dir));
    expect(offenders).toEqual([]);
  });
});
