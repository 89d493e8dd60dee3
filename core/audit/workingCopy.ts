/**
 * The working copy of a private pool for the one-run canary audit: the pool plus the
 * included canaries, in memory only. Each canary is one more privacy unit, Poisson-sampled
 * at the same rate and assigned to a teacher uniformly, independently of the others — the
 * union has exactly the law of a pool that held the canaries (privatePool.ts contract).
 */
import { inMemoryPool, type PoolRecord, type PrivatePool } from '../icl/privatePool';

export function poolWithCanaries(pool: PrivatePool, canaries: readonly PoolRecord[]): PrivatePool {
  const extra = inMemoryPool(canaries);
  return {
    units: pool.units + extra.units,
    sampleTeachers: async (q, teachers, random) => {
      const real = await pool.sampleTeachers(q, teachers, random);
      const planted = await extra.sampleTeachers(q, teachers, random);
      return real.map((records, t) => [...records, ...planted[t]]);
    },
  };
}
