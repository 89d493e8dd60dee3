/**
 * The separately charged size release a certificate names (`sizeLedger`), for every export
 * priced from noisy pool sizes (DP prompts, DP answers). The sizes are released and charged as
 * their own ledger entry BEFORE anything is priced or refused from them (ARCHITECTURE §4;
 * chargeSizeRelease in electron/services/sizes/poolSizes.ts), so the certificate's event is
 * sequence([size release, the release's own event]): the entry named by `ledger` charged the
 * second part, the entry named by `sizeLedger` the first, and recorded the hash of exactly the
 * stated sizes (core/icl/noisyPoolSizes.ts, sizeReleaseHash).
 */
import type { PrivacyEvent } from '../accounting/events';
import { sizeReleaseHash } from '../icl/noisyPoolSizes';
import { canonicalJson } from './canonicalJson';
import type { PrivacyCertificate } from './dpPromptFormat';
import type { CheckResult, LedgerView } from './verifyDpPrompt';

export type SizedCertificate = Pick<PrivacyCertificate, 'event' | 'poolSizes' | 'sizeLedger'>;

/** The event the reservation named by `ledger` charged: after a separately charged size release, the rest. */
export function chargedPart(c: SizedCertificate): PrivacyEvent {
  return c.sizeLedger && c.event.kind === 'sequence' && c.event.events.length === 2 ? c.event.events[1] : c.event;
}

/**
 * The size release's own commit: its event is the first part of the certificate's, its output
 * the stated `sizes` (in the order released). `folded`: how a noisy certificate without
 * `sizeLedger` is judged — issued before the release was charged on its own, its size release
 * is the first part of the job's own reservation (checked by the ledger event check) — or null
 * where such a certificate cannot be valid.
 */
export async function sizeLedgerCheck(c: SizedCertificate, sizes: readonly unknown[], ledger: LedgerView | undefined, folded: string | null = null): Promise<CheckResult> {
  const name = 'size ledger entry';
  if (c.poolSizes?.kind !== 'noisy') return { name, ok: c.sizeLedger === undefined, detail: c.sizeLedger === undefined ? 'none: the size is declared public' : 'a size entry is named, but the size is declared public' };
  if (!c.sizeLedger && folded !== null) return { name, ok: true, detail: folded };
  if (!c.sizeLedger || c.event.kind !== 'sequence') return { name, ok: false, detail: 'the size is noisy, but no separately charged size release is named' };
  if (!ledger) return { name, ok: false, detail: 'not checked: no ledger available here' };
  const commit = await ledger.commit(c.sizeLedger.entryId);
  if (!commit) return { name, ok: false, detail: `this data directory's ledger has no commit entry ${c.sizeLedger.entryId}` };
  const ok =
    commit.entryHash === c.sizeLedger.entryHash &&
    commit.eventJson === canonicalJson(c.event.events[0]) &&
    sizes.length > 0 && sizes.every((n) => typeof n === 'number') &&
    commit.outputHash === (await sizeReleaseHash(sizes as number[]));
  return {
    name,
    ok,
    detail: ok
      ? `entry ${c.sizeLedger.entryId} charged the size release and recorded exactly the stated ${sizes.length === 1 ? 'size' : 'sizes'}`
      : `entry ${c.sizeLedger.entryId} does not hold this size release (its hash, event or recorded ${sizes.length === 1 ? 'size' : 'sizes'} differ)`,
  };
}
