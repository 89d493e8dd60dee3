/**
 * A dataset's split sizes (vault/datasets.ts) and the stats' splits and labels (curation.ts) are
 * sums over record_counts (migration 21, kept by triggers), not counts of the records: after any
 * sequence (fast-check) of additions, edits of a record's split or label, bulk moves, relabels and
 * deletes, and a dataset deleted beside it, they equal a recount of the records; and finding a
 * dataset reads no record.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { callMethod } from '../../../electron/services/api';
import { ServiceContext } from '../../../electron/services/context';
import { ensureDataDir } from '../../../electron/services/dataDir';
import { getVaultService } from '../../../electron/services/vault/vaultHandlers';
import type { RecordRow } from '../../../electron/shared/api/vault';

const dir = mkdtempSync(join(tmpdir(), 'veil-dataset-counts-'));
const ctx = new ServiceContext(ensureDataDir(dir), 'cli');
afterAll(async () => {
  await ctx.close();
  rmSync(dir, { recursive: true, force: true });
});

const SPLITS = ['private', 'public', 'held-out'] as const;
const LABELS = ['spam', 'ham', null] as const;
type Split = (typeof SPLITS)[number];
type Label = (typeof LABELS)[number];

type Op =
  | { kind: 'add'; records: { split: Split; label: Label }[] }
  | { kind: 'edit'; pick: number; split?: Split; label?: Label }
  | { kind: 'move'; picks: number[]; split: Split }
  | { kind: 'relabel'; picks: number[]; label: Label }
  | { kind: 'delete'; picks: number[] }
  | { kind: 'dropBeside' };

const split = fc.constantFrom(...SPLITS);
const label = fc.constantFrom(...LABELS);
const picks = fc.array(fc.nat(), { minLength: 1, maxLength: 6 });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('add' as const), records: fc.array(fc.record({ split, label }), { minLength: 1, maxLength: 8 }) }),
  fc.record({ kind: fc.constant('edit' as const), pick: fc.nat(), split: fc.option(split, { nil: undefined }), label: fc.option(label, { nil: undefined }) }),
  fc.record({ kind: fc.constant('move' as const), picks, split }),
  fc.record({ kind: fc.constant('relabel' as const), picks, label }),
  fc.record({ kind: fc.constant('delete' as const), picks }),
  fc.constant({ kind: 'dropBeside' as const }),
);

let texts = 0;
async function ids(dataset: string): Promise<number[]> {
  return (await callMethod(ctx, 'vault.records', { dataset, limit: 1000 })).rows.map((r: RecordRow) => r.id);
}
const chosen = (all: number[], picked: number[]) => [...new Set(picked.map((p) => all[p % all.length]))];

async function apply(dataset: string, step: Op): Promise<void> {
  const all = await ids(dataset);
  if (step.kind === 'add') {
    const records = step.records.map((r) => ({ text: `record ${++texts}`, split: r.split, ...(r.label ? { label: r.label } : {}) }));
    await callMethod(ctx, 'vault.addRecords', { dataset, records });
  } else if (step.kind === 'dropBeside') {
    await callMethod(ctx, 'vault.deleteDataset', { dataset: 'beside', compact: false }).catch(() => undefined);
  } else if (all.length === 0) {
    return;
  } else if (step.kind === 'edit') {
    await callMethod(ctx, 'vault.updateRecord', { id: all[step.pick % all.length], split: step.split, label: step.label });
  } else if (step.kind === 'move') {
    await callMethod(ctx, 'vault.bulk', { dataset, target: { ids: chosen(all, step.picks) }, action: { kind: 'move', split: step.split } });
  } else if (step.kind === 'relabel') {
    await callMethod(ctx, 'vault.bulk', { dataset, target: { ids: chosen(all, step.picks) }, action: { kind: 'label', label: step.label } });
  } else {
    await callMethod(ctx, 'vault.bulk', { dataset, target: { ids: chosen(all, step.picks) }, action: { kind: 'delete' } });
  }
}

/** The split sizes and label rows the service reports, and the same counted from the records. */
async function reportedAndRecounted(name: string) {
  const vault = await getVaultService(ctx);
  const dataset = await vault.dataset(name);
  const listed = (await callMethod(ctx, 'vault.listDatasets', {})).find((d) => d.name === name)!;
  const stats = await callMethod(ctx, 'vault.stats', { dataset: name });
  const bySplit = await vault.db.all<{ split: string; n: number }>('SELECT split, COUNT(*) AS n FROM records WHERE dataset_id = $id GROUP BY split', { id: dataset.id });
  const n = (s: string) => bySplit.find((r) => r.split === s)?.n ?? 0;
  const counts = { private: n('private'), public: n('public'), heldOut: n('held-out'), total: n('private') + n('public') + n('held-out') };
  const labels = await vault.db.all(
    `SELECT label, SUM(split = 'private') AS private, SUM(split = 'public') AS public, SUM(split = 'held-out') AS heldOut
      FROM records WHERE dataset_id = $id GROUP BY label ORDER BY label`,
    { id: dataset.id },
  );
  return {
    reported: { found: dataset.counts, listed: listed.counts, splits: stats.splits, labels: stats.labels },
    recounted: { found: counts, listed: counts, splits: { private: counts.private, public: counts.public, heldOut: counts.heldOut }, labels },
  };
}

describe('dataset counts from record_counts', () => {
  it('equal a recount after any sequence of additions, split and label edits, bulk moves, relabels and deletes (fast-check)', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 12 }), async (steps) => {
        const name = `counts-${++run}`;
        await callMethod(ctx, 'vault.createDataset', { name, labels: ['spam', 'ham'] });
        await callMethod(ctx, 'vault.createDataset', { name: 'beside', labels: ['spam', 'ham'] }).catch(() => undefined);
        await callMethod(ctx, 'vault.addRecords', { dataset: 'beside', records: [{ text: `beside ${run}`, label: 'ham' }] });
        for (const step of steps) {
          await apply(name, step);
          const { reported, recounted } = await reportedAndRecounted(name);
          expect(reported).toEqual(recounted);
        }
      }),
      { numRuns: 25 },
    );
  }, 300_000);

  it('finds a dataset without reading its records', async () => {
    await callMethod(ctx, 'vault.createDataset', { name: 'quiet', labels: ['spam'] });
    await callMethod(ctx, 'vault.addRecords', { dataset: 'quiet', records: [{ text: 'one', label: 'spam' }, { text: 'two', split: 'public' }] });
    const vault = await getVaultService(ctx);
    const get = vi.spyOn(vault.db, 'get');
    try {
      expect((await vault.dataset('quiet')).counts).toEqual({ private: 1, public: 1, heldOut: 0, total: 2 });
      expect(get.mock.calls.map(([sql]) => sql).filter((sql) => /\bFROM records\b/.test(sql))).toEqual([]);
    } finally {
      get.mockRestore();
    }
  });
});
