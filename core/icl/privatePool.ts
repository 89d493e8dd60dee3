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

export interface PrivatePool {
  /** Number of privacy units in the pool (records, or subjects): sets q. */
  readonly units: number;
  /** The sampled demonstration texts of each teacher (M arrays, possibly empty). */
  sampleTeachers(q: number, teachers: number, random: RandomSource): Promise<string[][]>;
}

/** A pool held in memory, one record per privacy unit (tests, benches, small datasets). */
export function inMemoryPool(texts: readonly string[]): PrivatePool {
  return {
    units: texts.length,
    sampleTeachers: async (q, teachers, random) =>
      poissonSampleTeachers(texts.length, q, teachers, random).map((group) => group.map((i) => texts[i])),
  };
}
