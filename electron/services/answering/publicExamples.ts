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
import { HAS_OUTPUT } from '../vault/hasOutput';
import type { PublicSourceDto } from '../../shared/api/publicSource';
import type { ExampleFilter, LabelledExample, SynthesisDataset, SynthesisSource } from '../synthesis/synthesisSource';

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

/** The dataset whose public split serves `dataset`: its own when it has public records, else its public source, else none. */
async function servingSplit(q: Queryable, dataset: SynthesisDataset): Promise<{ id: number; name: string } | null> {
  return (await hasPublic(q, dataset.id)) ? dataset : sourceOf(q, dataset.id);
}

/**
 * Up to `limit` public examples of `dataset` (a fixed uniform sample of the serving public split), [] when it has none.
 * `{ withOutput: true }`: answering's public demonstrations — only records with a non-blank output, and only
 * for a generation dataset — so the sample holds one exactly when hasPublicDemonstrations says there is
 * one (the preview prices the aggregation the job runs).
 */
export async function publicExamples(q: Queryable, source: SynthesisSource, dataset: SynthesisDataset, limit: number, filter?: ExampleFilter): Promise<LabelledExample[]> {
  const from = await servingSplit(q, dataset);
  if (!from || (filter?.withOutput && dataset.task !== 'generation')) return [];
  return source.examples(from.id === dataset.id ? dataset : await source.dataset(from.name), 'public', limit, filter);
}

/** How many examples publicExamples gives (no filter) for the same `limit`, by one COUNT instead of reading their texts (a price). */
export async function publicExampleCount(q: Queryable, dataset: SynthesisDataset, limit: number): Promise<number> {
  const from = await servingSplit(q, dataset);
  return from ? Math.min(limit, await publicCount(q, from.id)) : 0;
}

const HAS_PUBLIC = "SELECT EXISTS (SELECT 1 FROM records WHERE dataset_id = $id AND split = 'public') AS found";
const HAS_PUBLIC_OUTPUT = `SELECT EXISTS (SELECT 1 FROM records WHERE dataset_id = $id AND split = 'public' AND ${HAS_OUTPUT}) AS found`;

async function hasPublic(q: Queryable, datasetId: number): Promise<boolean> {
  return Boolean((await q.get<{ found: number }>(HAS_PUBLIC, { id: datasetId }))?.found);
}

/**
 * Whether answering over `dataset` has public demonstrations (public records with a non-blank
 * output, of the split publicExamples samples with `withOutput`), by one existence query instead of
 * the sample: the job's sample is drawn among exactly these records, so it is empty exactly
 * when this says no.
 */
export async function hasPublicDemonstrations(q: Queryable, dataset: SynthesisDataset): Promise<boolean> {
  const from = await servingSplit(q, dataset);
  if (!from || dataset.task !== 'generation') return false;
  return Boolean((await q.get<{ found: number }>(HAS_PUBLIC_OUTPUT, { id: from.id }))?.found);
}
