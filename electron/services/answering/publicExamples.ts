/**
 * A dataset's public examples (issue 15): its own public split, or, when that is empty, the
 * public split of the dataset the analyst named as its public source (out-of-distribution
 * public data, migration 13). Only public splits are read here — never a private record — so
 * everything built from them (the public ensemble, SGA's candidates, the keyword universe)
 * costs no privacy.
 */
import type { Queryable } from '../db/database';
import { resolveDataset } from '../ledger/datasets';
import { RefusalError } from '../refusalError';
import type { PublicSourceDto } from '../../shared/api/publicSource';
import type { LabelledExample, SynthesisDataset, SynthesisSource } from '../synthesis/synthesisSource';

const PUBLIC_COUNT = "SELECT COUNT(*) AS n FROM records WHERE dataset_id = $id AND split = 'public'";

async function publicCount(q: Queryable, datasetId: number): Promise<number> {
  return (await q.get<{ n: number }>(PUBLIC_COUNT, { id: datasetId }))?.n ?? 0;
}

async function sourceOf(q: Queryable, datasetId: number): Promise<{ id: number; name: string } | null> {
  return (await q.get<{ id: number; name: string }>('SELECT s.id, s.name FROM datasets d JOIN datasets s ON s.id = d.public_source_id WHERE d.id = $id', { id: datasetId })) ?? null;
}

export async function publicSource(q: Queryable, dataset: string): Promise<PublicSourceDto> {
  const key = await resolveDataset(q, dataset);
  const inDomain = await publicCount(q, key.id);
  const from = await sourceOf(q, key.id);
  const fromRecords = from ? await publicCount(q, from.id) : null;
  const uses = inDomain > 0 ? 'in-domain' : fromRecords ? 'other-dataset' : 'none';
  return { dataset: key.name, from: from?.name ?? null, inDomain, fromRecords, uses };
}

/** Names `from` as the dataset's public source (null clears it): it must exist, differ, share the task and have public records. */
export async function setPublicSource(q: Queryable, dataset: string, from: string | null): Promise<PublicSourceDto> {
  const key = await resolveDataset(q, dataset);
  let sourceId: number | null = null;
  if (from !== null) {
    const source = await q.get<{ id: number; task: string }>('SELECT id, task FROM datasets WHERE name = $from', { from });
    if (!source) throw new RefusalError(`no dataset named "${from}" in the vault`);
    if (source.id === key.id) throw new RefusalError(`"${from}" is the dataset itself: name another dataset whose public split should serve`);
    const task = (await q.get<{ task: string }>('SELECT task FROM datasets WHERE id = $id', { id: key.id }))!.task;
    if (source.task !== task) throw new RefusalError(`"${from}" is a ${source.task} dataset and "${key.name}" a ${task} one: its examples cannot serve as demonstrations`);
    if ((await publicCount(q, source.id)) === 0) throw new RefusalError(`"${from}" has no public records: only a dataset's public split can serve as public examples`);
    sourceId = source.id;
  }
  await q.run('UPDATE datasets SET public_source_id = $sourceId WHERE id = $id', { id: key.id, sourceId });
  return publicSource(q, key.name);
}

/** Up to `limit` public examples for answering over `dataset` (a fixed uniform sample), [] when it has none. */
export async function publicExamples(q: Queryable, source: SynthesisSource, dataset: SynthesisDataset, limit: number): Promise<LabelledExample[]> {
  if (await hasPublic(q, dataset.id)) return source.examples(dataset, 'public', limit);
  const from = await sourceOf(q, dataset.id);
  return from ? source.examples(await source.dataset(from.name), 'public', limit) : [];
}

/** What String.prototype.trim removes (ECMAScript WhiteSpace and LineTerminator), for SQLite's trim(X, Y). */
const JS_TRIMMED = '\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff';

const HAS_PUBLIC = "SELECT EXISTS (SELECT 1 FROM records WHERE dataset_id = $id AND split = 'public') AS found";
const HAS_PUBLIC_OUTPUT = "SELECT EXISTS (SELECT 1 FROM records WHERE dataset_id = $id AND split = 'public' AND trim(output, $trimmed) <> '') AS found";

async function hasPublic(q: Queryable, datasetId: number): Promise<boolean> {
  return Boolean((await q.get<{ found: number }>(HAS_PUBLIC, { id: datasetId }))?.found);
}

/**
 * Whether answering over `dataset` has public demonstrations (public examples with a non-blank
 * output: sgaSettings.publicDemonstrations), read from the same split as publicExamples, by one
 * existence query instead of the sample. The same answer as the job's sample gives whenever the
 * split holds at most the sample's size (the sample is then the whole split). Beyond, a sample
 * can miss every record with an output only where fewer than about one in the sample's size
 * has one: the preview then names sga where the job, reading its sample, falls back to
 * embedding (or refuses an explicit sga) and prices that.
 */
export async function hasPublicDemonstrations(q: Queryable, dataset: SynthesisDataset): Promise<boolean> {
  const id = (await hasPublic(q, dataset.id)) ? dataset.id : (await sourceOf(q, dataset.id))?.id;
  if (id === undefined || dataset.task !== 'generation') return false;
  return Boolean((await q.get<{ found: number }>(HAS_PUBLIC_OUTPUT, { id, trimmed: JS_TRIMMED }))?.found);
}
