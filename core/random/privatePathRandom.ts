/**
 * The private path's randomness check (ARCHITECTURE §3–4): whatever samples private units or
 * draws noise for a release (synthesis, answering) calls `requirePrivateRandom` first and
 * refuses a non-cryptographic source — a seeded stream is predictable from a few outputs, so
 * its "noise" and "subsample" protect nothing.
 *
 * Tests and explicitly non-private experiments opt in per source, in code, with
 * `allowSeededOnPrivatePath(source, reason)`: there is no global switch, environment variable or
 * setting a user could flip, and production code never calls it (a test greps for that).
 */
import type { RandomSource } from './randomSource';

/** Why a seeded source is allowed: reproducible tests, or an experiment whose output is not a release. */
export type SeededOptInReason = 'test' | 'non-private experiment';

const optedIn = new WeakSet<RandomSource>();

/** Marks `source` (and only it) as accepted on the private path. Tests and non-private experiments only. */
export function allowSeededOnPrivatePath<T extends RandomSource>(source: T, reason: SeededOptInReason): T {
  if (reason !== 'test' && reason !== 'non-private experiment') throw new Error('allowSeededOnPrivatePath: say why (test or non-private experiment)');
  optedIn.add(source);
  return source;
}

export class NonCryptographicRandomError extends Error {
  constructor(path: string) {
    super(`${path} needs the CSPRNG: a non-cryptographic (seeded) random source was given, and its noise and sampling would be predictable`);
  }
}

/** Throws unless `random` is the CSPRNG (or a source a test explicitly opted in). */
export function requirePrivateRandom(random: RandomSource, path: string): void {
  if (random.cryptographic === true || optedIn.has(random)) return;
  throw new NonCryptographicRandomError(path);
}
