/**
 * The sampling API the mechanisms use: a private pool (one label's private records, or the
 * whole private split) indexed once, then Poisson-sampled with the CSPRNG on every call in
 * expected O(q·n) time (geometric gaps, core/mechanisms/poissonSampling.ts); only the
 * sampled records' text is read. Privacy unit 'record': each record is a unit. 'subject':
 * each subject is a unit (records without a subject id count as their own subject) holding
 * at most `subjectCap` of its records — the earliest by id, a choice that depends only on
 * the subject's own records — and all of a sampled subject's records go to one teacher.
 */
import type { PrivatePool } from '../../../core/icl/privatePool';
import { poissonSampleAssign } from '../../../core/mechanisms/poissonSampling';
import type { RandomSource } from '../../../core/random/randomSource';
import type { Queryable } from '../db/database';

const INDEX = `SELECT id, subject_id FROM records WHERE dataset_id = $datasetId AND split = 'private'
  AND ($label IS NULL OR label = $label) ORDER BY id`;
const TEXTS = 'SELECT id, text FROM records WHERE id IN (SELECT value FROM json_each($ids))';

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

/** A PrivatePool over the vault: the unit index in memory, texts fetched per sample. */
export function vaultPool(q: Queryable, units: readonly number[][]): PrivatePool {
  return {
    units: units.length,
    async sampleTeachers(rate: number, teachers: number, random: RandomSource) {
      const { units: sampled, teacher } = poissonSampleAssign(units.length, rate, teachers, random);
      const ids = [...sampled].flatMap((u) => units[u]);
      const texts = new Map((await q.all<{ id: number; text: string }>(TEXTS, { ids: JSON.stringify(ids) })).map((r) => [r.id, r.text]));
      const groups: string[][] = Array.from({ length: teachers }, () => []);
      sampled.forEach((u, i) => {
        for (const id of units[u]) {
          const text = texts.get(id);
          if (text !== undefined) groups[teacher[i]].push(text);
        }
      });
      return groups;
    },
  };
}
