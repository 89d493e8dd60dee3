/** The synthesis source over the vault: dataset description, private pools, non-private examples. */
import { sampleWithoutReplacement } from '../../../core/random/uniform';
import { seededRandom } from '../../../core/random/seededRandom';
import type { Database } from '../db/database';
import type { ServiceContext } from '../context';
import { isSizePublic } from '../sizes/poolSizes';
import { getVaultService } from '../vault/vaultHandlers';
import { HAS_OUTPUT } from '../vault/hasOutput';
import type { ExampleFilter, LabelledExample, SynthesisSource } from './synthesisSource';
import { forgetLearners } from './domainLearner';

const FETCH_CHUNK = 500;

/**
 * A uniform sample of a NON-private split (not a release: the utility check's examples, the
 * public demonstrations it compares with). Seeded by the dataset, so every run of a dataset
 * is checked on the same examples; the order records were imported in (often one label
 * after another) does not bias it. `filter.withOutput`: only records with a non-blank output.
 */
async function sampleSplit(db: Database, datasetId: number, split: 'public' | 'held-out', limit: number, filter?: ExampleFilter): Promise<LabelledExample[]> {
  const where = `dataset_id = $datasetId AND split = $split${filter?.withOutput ? ` AND ${HAS_OUTPUT}` : ''}`;
  const ids = (await db.all<{ id: number }>(`SELECT id FROM records WHERE ${where} ORDER BY id`, { datasetId, split })).map((r) => r.id);
  const chosen = sampleWithoutReplacement(seededRandom(`veil.examples/${datasetId}/${split}`), ids, limit);
  const examples: LabelledExample[] = [];
  for (let i = 0; i < chosen.length; i += FETCH_CHUNK) {
    const rows = await db.all<LabelledExample & { id: number }>(
      'SELECT id, text, label, output FROM records WHERE id IN (SELECT value FROM json_each($ids))',
      { ids: JSON.stringify(chosen.slice(i, i + FETCH_CHUNK)) },
    );
    const byId = new Map(rows.map((r) => [r.id, { text: r.text, label: r.label, output: r.output }]));
    // A record deleted meanwhile (another process) is simply not in the sample.
    for (const id of chosen.slice(i, i + FETCH_CHUNK)) {
      const example = byId.get(id);
      if (example) examples.push(example);
    }
  }
  return examples;
}

/**
 * The public split's version: a counter SQLite moves on every insert, delete and change of a
 * public record (migration 19's triggers), never the clock. One row read.
 */
const PUBLIC_VERSION = 'SELECT public_version AS version FROM datasets WHERE id = $datasetId';

export async function vaultSource(ctx: ServiceContext): Promise<SynthesisSource> {
  const vault = await getVaultService(ctx);
  // A deleted dataset's learners are dropped at once, not left to age out of the cache.
  await ctx.singleton(
    'synthesis.forgetDeletedLearners',
    () => ctx.subscribe((event, payload) => event === 'vault.changed' && (payload as { what: string }).what === 'deleted' && forgetLearners((payload as { datasetId: number }).datasetId)),
    (unsubscribe) => void unsubscribe(),
  );
  return {
    dataset: async (name) => {
      const d = await vault.dataset(name);
      return { id: d.id, name: d.name, createdAt: d.createdAt, task: d.task, labels: d.labels, privacyUnit: d.privacyUnit, sizePublic: await isSizePublic(vault.db, d.id) };
    },
    pool: async (dataset, label) => vault.pool(await vault.dataset(dataset.id), label),
    examples: (dataset, split, limit, filter) => sampleSplit(vault.db, dataset.id, split, limit, filter),
    publicVersion: async (dataset) => {
      const row = await vault.db.get<Record<string, unknown>>(PUBLIC_VERSION, { datasetId: dataset.id });
      // The file and the dataset's creation tell a dataset from one made later under the same id.
      return JSON.stringify([vault.db.file, dataset.id, dataset.createdAt, row]);
    },
  };
}
