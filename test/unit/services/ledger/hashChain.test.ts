/** The entry hash covers every stored column but itself, and the previous entry's hash. */
import { describe, expect, it } from 'vitest';
import { GENESIS_HASH, hashEntry, type UnhashedEntry } from '../../../../electron/services/ledger/hashChain';

const entry: UnhashedEntry = {
  id: 1,
  datasetId: 1,
  seq: 1,
  type: 'reserve',
  eventJson: '{"kind":"pure","epsilon":0.5,"neighbouring":"add-remove"}',
  epsilonCap: null,
  delta: 1e-6,
  spentEpsilon: 0.5,
  accountant: 'pld',
  parametersJson: '{}',
  purpose: 'a count',
  jobId: null,
  actor: 'analyst (cli)',
  createdAt: '2025-01-01T00:00:00.000Z',
  reservationId: null,
  outputHash: null,
  prevHash: GENESIS_HASH,
};

const changes: Partial<UnhashedEntry>[] = [
  { id: 2 }, { datasetId: 2 }, { seq: 2 }, { type: 'commit' }, { eventJson: entry.eventJson!.replace('0.5', '0.6') },
  { epsilonCap: 1 }, { delta: 2e-6 }, { spentEpsilon: 0.50000001 }, { accountant: 'rdp' }, { parametersJson: '{"a":1}' },
  { purpose: 'a count!' }, { jobId: 'j' }, { actor: 'someone' }, { createdAt: '2025-01-01T00:00:00.001Z' },
  { reservationId: 1 }, { outputHash: 'ab' }, { prevHash: '1'.repeat(64) },
];

describe('hashEntry', () => {
  it('is a stable SHA-256 that ignores a stored entryHash', async () => {
    const hash = await hashEntry(entry);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(await hashEntry({ ...entry })).toBe(hash);
    expect(await hashEntry({ ...entry, entryHash: 'x' } as UnhashedEntry)).toBe(hash);
  });

  it.each(changes)('changes when any column changes: %o', async (change) => {
    expect(await hashEntry({ ...entry, ...change })).not.toBe(await hashEntry(entry));
  });

  it('distinguishes a number from the same number as text', async () => {
    expect(await hashEntry({ ...entry, spentEpsilon: '0.5' as unknown as number })).not.toBe(await hashEntry(entry));
  });
});
