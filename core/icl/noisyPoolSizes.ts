/**
 * Pool sizes as a charged DP release (ARCHITECTURE §4 "Sizes are data too"; issue 20).
 *
 * A sampling rate q = M·N/|pool| or a default δ computed from an exact private count would
 * release that count. Instead each pool's count of privacy units is released through the
 * discrete Laplace mechanism (exact sampler, Canonne–Kamath–Steinke 2020; Ghosh et al. 2009)
 * with scale t, and everything downstream — q, the default δ, the certificate's sizes — is
 * computed from the noisy counts: post-processing of a DP release, and under adaptive
 * composition the later mechanisms may depend on it (Dwork & Roth 2014, Thm 3.16 / §3.5).
 *
 * Neighbouring: add/remove one privacy unit. Sensitivity of the vector of pool counts, ℓ1:
 * 1 for record-level privacy (the label pools partition the private split: one record is in
 * one pool — parallel composition), the number of pools for subject-level privacy (one
 * subject may hold records of every label). Event: pure(ℓ1/t) (the discrete Laplace's loss
 * is ±ε on every output: see discreteLaplaceMechanism.ts).
 *
 * A noisy count below 1 is released as 1 (post-processing), so q = min(1, M·N/ñ) is defined.
 * An analyst may instead declare the sizes public (a dataset setting, recorded with every
 * charge and in the certificate): then no count is drawn and the exact sizes are used.
 */
import { pureDp, type PrivacyEvent } from '../accounting/events';
import { canonicalJson, sha256Hex } from '../export/canonicalJson';
import { discreteLaplaceMechanism } from '../mechanisms/discreteLaplaceMechanism';
import { requirePrivateRandom } from '../random/privatePathRandom';
import type { RandomSource } from '../random/randomSource';

/** ε of one release of a dataset's pool sizes (the scale t = 1/ε for record-level privacy). */
export const POOL_SIZE_EPSILON = 0.1;

/** How the sizes a release used were obtained: what the certificate and the ledger state. */
export type PoolSizeSource =
  | { kind: 'noisy'; mechanism: 'discrete-laplace'; scale: number; l1Sensitivity: number; epsilon: number }
  | { kind: 'declared-public' };

export interface PoolSizeRelease {
  /** The sizes to use (noisy, ≥ 1; or exact where declared public), in the order given. */
  sizes: number[];
  source: PoolSizeSource;
  /** The privacy event to charge — before anything is priced or refused from the sizes (chargeSizeRelease); null where declared public. */
  event: PrivacyEvent | null;
}

export interface PoolSizeRequest {
  /** Exact counts of privacy units, one per pool. Never released as such unless declared public. */
  exact: readonly number[];
  privacyUnit: 'record' | 'subject';
  /** The dataset setting "size is public" (off by default). */
  sizePublic: boolean;
  random: RandomSource;
  epsilon?: number;
}

/** How `pools` pool sizes of a dataset are released: the mechanism and its parameters, or declared public. */
export function poolSizeSource(pools: number, privacyUnit: 'record' | 'subject', sizePublic: boolean, epsilon = POOL_SIZE_EPSILON): PoolSizeSource {
  if (sizePublic) return { kind: 'declared-public' };
  const l1Sensitivity = privacyUnit === 'record' ? 1 : Math.max(1, pools);
  return { kind: 'noisy', mechanism: 'discrete-laplace', scale: l1Sensitivity / epsilon, l1Sensitivity, epsilon };
}

export function releasePoolSizes(req: PoolSizeRequest): PoolSizeRelease {
  const source = poolSizeSource(req.exact.length, req.privacyUnit, req.sizePublic, req.epsilon);
  if (source.kind === 'declared-public') return { sizes: [...req.exact], source, event: null };
  requirePrivateRandom(req.random, 'the pool size release');
  const { output, event } = discreteLaplaceMechanism(req.exact, { scale: source.scale, l1Sensitivity: source.l1Sensitivity }, req.random);
  return { sizes: output.map((n) => Math.max(1, n)), source, event };
}

/** The event a pool-size release charges, without drawing it (pricing ahead of a job): pure(ε) whatever the pools. */
export const poolSizeEvent = (sizePublic: boolean, epsilon = POOL_SIZE_EPSILON): PrivacyEvent | null => (sizePublic ? null : pureDp(epsilon));

/**
 * What the ledger commit of a size release charged on its own records as its output hash (and
 * a certificate verifier recomputes): the released sizes, in order.
 */
export const sizeReleaseHash = (sizes: readonly number[]): Promise<string> => sha256Hex(canonicalJson({ releasedSizes: sizes }));
