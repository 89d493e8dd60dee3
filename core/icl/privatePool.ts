/**
 * A private pool — one label's private records, or the whole private split for
 * generation tasks — seen by the algorithms only through Poisson sampling, so a
 * vault-backed pool can fetch just the sampled texts.
 *
 * Contract (ARCHITECTURE §4): every call draws fresh Poisson(q) inclusions from the
 * given RandomSource (the CSPRNG in production) and assigns each sampled privacy unit
 * to one of the M teachers uniformly and independently; all of a unit's records go to
 * the same teacher. Adding or removing one unit therefore changes exactly one teacher.
 */
import { poissonSampleTeachers } from '../mechanisms/poissonSampling';
import type { RandomSource } from '../random/randomSource';

/** A sampled private record as a teacher sees it: its text and, for generation tasks, its reference output. */
export interface PoolRecord {
  text: string;
  output?: string;
  /** Its private label (classification splits sampled whole, e.g. by private answering). */
  label?: string;
}

export interface PrivatePool {
  /** Number of privacy units in the pool (records, or subjects): sets q. */
  readonly units: number;
  /** The sampled records of each teacher (M arrays, possibly empty). */
  sampleTeachers(q: number, teachers: number, random: RandomSource): Promise<PoolRecord[][]>;
}

/** A pool held in memory, one record (or bare text) per privacy unit (tests, benches, small datasets). */
export function inMemoryPool(records: readonly (string | PoolRecord)[]): PrivatePool {
  const pool = records.map((r) => (typeof r === 'string' ? { text: r } : r));
  return {
    units: pool.length,
    sampleTeachers: async (q, teachers, random) =>
      poissonSampleTeachers(pool.length, q, teachers, random).map((group) => group.map((i) => pool[i])),
  };
}
