/**
 * Poisson subsampling (ARCHITECTURE §4): each of n units is included independently with
 * probability q, drawn fresh from the CSPRNG for every step; the sampled units are then
 * assigned to M teachers uniformly and independently. Adding or removing one unit therefore
 * changes at most one teacher's input.
 *
 * Expected O(qn + 1) time: the gap between consecutive sampled units is Geometric(q)
 * (failures before a success), drawn by inversion ⌊ln U / ln(1 − q)⌋ (Devroye 1986;
 * P[gap ≥ m] = (1 − q)^m). Floating-point inversion makes inclusion probabilities exact up
 * to double rounding of ln(1 − q).
 *
 * Privacy: sampling charges nothing on its own; it amplifies the mechanism run on the
 * sample. The caller charges poissonSampled(q, innerEvent) from accounting/events — and only
 * if the sample was drawn here with a CSPRNG (never from a user-visible seed) and the inner
 * mechanism's sensitivity is stated for add/remove of one unit.
 */
import { cryptoRandom } from '../random/cryptoRandom';
import type { RandomSource } from '../random/randomSource';
import { uniformInt } from '../random/uniform';
import { requireProbability } from './types';

/** Indices (ascending) of the units included in a Poisson sample of rate q from n units. */
export function poissonSample(n: number, q: number, random: RandomSource = cryptoRandom): Uint32Array {
  if (!Number.isInteger(n) || n < 0 || n > 2 ** 32 - 1) throw new Error(`poissonSample: n must be an integer in [0, 2^32), got ${n}`);
  requireProbability('q', q);
  if (q === 0 || n === 0) return new Uint32Array(0);
  if (q === 1) return Uint32Array.from({ length: n }, (_, i) => i);
  const logOneMinusQ = Math.log1p(-q);
  // Capacity: mean + 10 standard deviations; grows if exceeded.
  let out = new Uint32Array(Math.min(n, Math.ceil(q * n + 10 * Math.sqrt(q * n) + 16)));
  let size = 0;
  let index = -1;
  for (;;) {
    const u = 1 - random.nextFloat(); // (0, 1]
    const skip = Math.floor(Math.log(u) / logOneMinusQ);
    index += skip + 1;
    if (index >= n || !Number.isFinite(index)) break;
    if (size === out.length) {
      const grown = new Uint32Array(Math.min(n, out.length * 2));
      grown.set(out);
      out = grown;
    }
    out[size++] = index;
  }
  return out.subarray(0, size);
}

export interface TeacherAssignment {
  /** Sampled unit indices, ascending. */
  units: Uint32Array;
  /** teacher[i] ∈ [0, M) for units[i], uniform and independent. */
  teacher: Uint32Array;
}

/** Poisson-sample n units at rate q and assign each sampled unit to one of M teachers. */
export function poissonSampleAssign(n: number, q: number, teachers: number, random: RandomSource = cryptoRandom): TeacherAssignment {
  if (!Number.isInteger(teachers) || teachers < 1 || teachers > 2 ** 32) throw new Error('teachers must be a positive integer');
  const units = poissonSample(n, q, random);
  const teacher = new Uint32Array(units.length);
  for (let i = 0; i < units.length; i++) teacher[i] = uniformInt(random, teachers);
  return { units, teacher };
}

/** The same sample grouped by teacher: groups[m] lists the unit indices of teacher m. */
export function poissonSampleTeachers(n: number, q: number, teachers: number, random: RandomSource = cryptoRandom): number[][] {
  const { units, teacher } = poissonSampleAssign(n, q, teachers, random);
  const groups: number[][] = Array.from({ length: teachers }, () => []);
  for (let i = 0; i < units.length; i++) groups[teacher[i]].push(units[i]);
  return groups;
}
