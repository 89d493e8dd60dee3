/**
 * The sampling API the mechanisms use: a private pool (one label's private records, or the
 * whole private split) indexed once, then Poisson-sampled with the CSPRNG on every call in
 * expected O(q·n) time (geometric gaps, core/mechanisms/poissonSampling.ts); only the
 * sampled records' text, label and output are read: `sampleTeachers` splits a draw among the M
 * teachers, `sample` returns it unit by unit. Privacy unit 'record': each record is a unit.
 * 'subject': each subject is a unit (records without a subject id count as their own subject) holding
 * at most `subjectCap` of its records — the earliest by id, a choice that depends only on
 * the subject's own records — and all of a sampled subject's records go to one teacher.
 */
import type { PoolRecord, PrivatePool } from '../../../core/icl/privatePool';
import { poissonSample, poissonSampleAssign } from '../../../core/mechanisms/poissonSampling';
import type { RandomSource } from '../../../core/random/randomSource';
import type { Queryable } from '../db/database';

const INDEX = `SELECT id, subject_id FROM records WHERE dataset_id = $datasetId AND split = 'private'
  AND ($label IS NULL OR label = $label) ORDER BY id`;
const RECORDS = 'SELECT id, text, label, output FROM records WHERE id IN (SELECT value FROM json_each($ids))';

export interface PoolSpec {
  datasetId: number;
  /** Restrict to one label; undefined = the whole private split. */
  label?: string;
  privacyUnit: 'record' | 'subject';
  subjectCap: number;
}

/** Record ids of each privacy unit, in a fixed order. */
export async function loadUnits(q: Queryable, spec: PoolSpec): Promise<number[][]> {
  const rows = await q.all<{ id: number; subject_id: string | null }>(INDEX, { datasetId: spec.datasetId, label: spec.label ?? null });
  if (spec.privacyUnit === 'record') return rows.map((r) => [r.id]);
  const bySubject = new Map<string, number[]>();
  const units: number[][] = [];
  for (const r of rows) {
    if (r.subject_id === null) {
      units.push([r.id]);
      continue;
    }
    const unit = bySubject.get(r.subject_id);
    if (!unit) {
      const fresh = [r.id];
      bySubject.set(r.subject_id, fresh);
      units.push(fresh);
    } else if (unit.length < spec.subjectCap) unit.push(r.id);
  }
  return units;
}

/** A sampled record: its text, label (null for generation tasks) and reference output (null if none). */
export interface SampledRecord {
  text: string;
  label: string | null;
  output: string | null;
}

/** A private pool over the vault; besides the teacher split, a plain sample of units with labels. */
export interface VaultPool extends PrivatePool {
  /** One Poisson(q) draw: the records (text and label) of each sampled unit, in unit order. */
  sample(q: number, random: RandomSource): Promise<SampledRecord[][]>;
}

/** The records of the given units, read in one query; a unit's records in index order. */
async function readUnits(q: Queryable, units: readonly number[][], sampled: Iterable<number>): Promise<SampledRecord[][]> {
  const chosen = [...sampled].map((u) => units[u]);
  const rows = await q.all<{ id: number } & SampledRecord>(RECORDS, { ids: JSON.stringify(chosen.flat()) });
  const byId = new Map(rows.map((r) => [r.id, { text: r.text, label: r.label, output: r.output }]));
  return chosen.map((ids) => ids.flatMap((id) => byId.get(id) ?? []));
}

/** A sampled record as a teacher sees it (only the fields it has). */
const poolRecord = (r: SampledRecord): PoolRecord => ({ text: r.text, ...(r.output === null ? {} : { output: r.output }), ...(r.label === null ? {} : { label: r.label }) });

/** A VaultPool: the unit index in memory, texts fetched per sample. */
export function vaultPool(q: Queryable, units: readonly number[][]): VaultPool {
  return {
    units: units.length,
    sample: async (rate, random) => readUnits(q, units, poissonSample(units.length, rate, random)),
    async sampleTeachers(rate: number, teachers: number, random: RandomSource) {
      const { units: sampled, teacher } = poissonSampleAssign(units.length, rate, teachers, random);
      const records = await readUnits(q, units, sampled);
      const groups: PoolRecord[][] = Array.from({ length: teachers }, () => []);
      records.forEach((unit, i) => groups[teacher[i]].push(...unit.map(poolRecord)));
      return groups;
    },
  };
}
