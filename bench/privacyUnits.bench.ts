/**
 * N, the privacy units of the private split (ledger/datasets.ts, privacyUnitCount), at 300,000
 * subject-level records (270,000 private: 255,000 with one of 42,500 subject ids, 15,000 without
 * a subject; 30,000 public), as every budgeted `ledger.summary`, plan and release price asks for
 * it. Counted after a change (a row written before each call, so the kept N is stale) with
 * migration 20's (dataset, split, subject) index and, alternately, without it (the index
 * dropped: the count before migration 20); and kept (nothing changed: one stamp read). Medians of
 * 9 calls per round, 3 rounds; `ledger.summary` (budget set) kept and after a change, with and
 * without the index; `budget.privacyUnits` (the Budget page's N) kept.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { callMethod } from '../electron/services/api';
import { ServiceContext } from '../electron/services/context';
import { ensureDataDir } from '../electron/services/dataDir';
import { appDatabase } from '../electron/services/db/appDatabase';
import { privacyUnitCount } from '../electron/services/ledger/datasets';
import { median } from './stats';

const RECORDS = 300_000;
const RUNS = 9;
const ROUNDS = 3;
const INDEX = 'CREATE INDEX records_by_split_subject ON records (dataset_id, split, subject_id)';

/** Median milliseconds of `RUNS` calls, each after `before` (not timed). */
async function ms(fn: () => Promise<unknown>, before: () => Promise<unknown> = async () => undefined): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    await before();
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  return +median(times).toFixed(2);
}

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), 'veil-bench-units-'));
  const ctx = new ServiceContext(ensureDataDir(dir), 'cli');
  try {
    const { id } = await callMethod(ctx, 'vault.createDataset', { name: 'people', labels: ['a'], privacyUnit: 'subject', subjectCap: 10 });
    const db = await appDatabase(ctx);
    const now = new Date().toISOString();
    // i % 10 = 0: public; i % 20 = 5: private without a subject; else private, subject i mod 50,000.
    await db.run(
      `WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ${RECORDS})
       INSERT INTO records (dataset_id, text, label, split, subject_id, content_hash, created_at, updated_at)
       SELECT $id, printf('note %d of a subject, about as long as a short clinic note or an e-mail line', i), 'a',
         CASE WHEN i % 10 = 0 THEN 'public' ELSE 'private' END, CASE WHEN i % 20 = 5 THEN NULL ELSE 'subject-' || (i % 50000) END,
         'hash-' || i, $now, $now FROM s`,
      { id, now },
    );
    await callMethod(ctx, 'budget.set', { dataset: 'people', epsilon: 4, delta: 1e-7 });
    const n = await privacyUnitCount(db, id);
    // A write (a change by this connection) before a call: the kept N no longer stands.
    const change = () => db.run('UPDATE datasets SET updated_at = updated_at WHERE id = $id', { id });
    const rounds: { afterChangeWithIndex: number; afterChangeWithoutIndex: number; kept: number }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const afterChangeWithIndex = await ms(() => privacyUnitCount(db, id), change);
      const kept = await ms(() => privacyUnitCount(db, id));
      await db.exec('DROP INDEX records_by_split_subject');
      const afterChangeWithoutIndex = await ms(() => privacyUnitCount(db, id), change);
      await db.exec(INDEX);
      rounds.push({ afterChangeWithIndex, afterChangeWithoutIndex, kept });
    }
    const summary = () => callMethod(ctx, 'ledger.summary', { dataset: 'people' });
    const summaryMs = { kept: await ms(summary), afterChangeWithIndex: await ms(summary, change), afterChangeWithoutIndex: 0 };
    const pageUnitsMs = await ms(() => callMethod(ctx, 'budget.privacyUnits', { dataset: 'people' }));
    await db.exec('DROP INDEX records_by_split_subject');
    summaryMs.afterChangeWithoutIndex = await ms(summary, change);
    await db.exec(INDEX);
    const med = (key: keyof (typeof rounds)[number]) => median(rounds.map((r) => r[key]));
    return {
      records: RECORDS,
      privacyUnits: n,
      privacyUnitCountMs: { kept: med('kept'), afterChangeWithIndex: med('afterChangeWithIndex'), afterChangeWithoutIndex: med('afterChangeWithoutIndex'), rounds },
      ledgerSummaryMs: summaryMs,
      budgetPrivacyUnitsMs: pageUnitsMs,
    };
  } finally {
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
