/** Dataset rows: creation, lookup by id or name, updates, summaries with split sizes. */
import type { DatasetDto } from '../../shared/api/vault';
import type { Queryable } from '../db/database';

export class VaultError extends Error {}

interface DatasetRow {
  id: number;
  name: string;
  description: string;
  task: DatasetDto['task'];
  labels_json: string;
  privacy_unit: DatasetDto['privacyUnit'];
  subject_cap: number;
  created_at: string;
  updated_at: string;
  n_private: number | null;
  n_public: number | null;
  n_held_out: number | null;
}

/** Split sizes summed from record_counts (migration 21: per dataset, split and label, kept by triggers), not counted from the records. */
const SUMMARY = `SELECT d.*,
  (SELECT SUM(n) FROM record_counts c WHERE c.dataset_id = d.id AND c.split = 'private') AS n_private,
  (SELECT SUM(n) FROM record_counts c WHERE c.dataset_id = d.id AND c.split = 'public') AS n_public,
  (SELECT SUM(n) FROM record_counts c WHERE c.dataset_id = d.id AND c.split = 'held-out') AS n_held_out
  FROM datasets d`;
const BY_ID = `${SUMMARY} WHERE d.id = $id`;
const BY_NAME = `${SUMMARY} WHERE d.name = $name`;
const ALL = `${SUMMARY} ORDER BY d.name`;
const NAME_TAKEN = 'SELECT 1 FROM datasets WHERE name = $name';
const INSERT = `INSERT INTO datasets (name, description, task, labels_json, privacy_unit, subject_cap, created_at, updated_at)
  VALUES ($name, $description, $task, $labels, $privacyUnit, $subjectCap, $now, $now)`;
const UPDATE = `UPDATE datasets SET name = $name, description = $description, labels_json = $labels, privacy_unit = $privacyUnit,
  subject_cap = $subjectCap, updated_at = $now WHERE id = $id`;
const TOUCH = 'UPDATE datasets SET updated_at = $now WHERE id = $id';
const LABELS_IN_USE = `SELECT DISTINCT label FROM records WHERE dataset_id = $id AND label IS NOT NULL`;
const CHARGES = `SELECT COUNT(*) AS n FROM ledger_entries WHERE dataset_id = $id AND type = 'reserve'`;

function toDto(row: DatasetRow): DatasetDto {
  const [p, u, h] = [row.n_private ?? 0, row.n_public ?? 0, row.n_held_out ?? 0];
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    task: row.task,
    labels: JSON.parse(row.labels_json) as string[],
    privacyUnit: row.privacy_unit,
    subjectCap: row.subject_cap,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    counts: { private: p, public: u, heldOut: h, total: p + u + h },
  };
}

export type DatasetRef = number | string;

const noDataset = (ref: DatasetRef) => (typeof ref === 'number' ? `no dataset with id ${ref}` : `no dataset named "${ref}"`);

export async function findDataset(q: Queryable, ref: DatasetRef): Promise<DatasetDto> {
  const row = await q.get<DatasetRow>(typeof ref === 'number' ? BY_ID : BY_NAME, typeof ref === 'number' ? { id: ref } : { name: ref });
  if (!row) throw new VaultError(noDataset(ref));
  return toDto(row);
}

/** The dataset's id and name alone, for callers that need no more (the ledger too, refusing with its own error class). */
export async function findDatasetKey(q: Queryable, ref: DatasetRef, Refusal: new (message: string) => Error = VaultError): Promise<{ id: number; name: string }> {
  const row = await q.get<{ id: number; name: string }>(typeof ref === 'number' ? 'SELECT id, name FROM datasets WHERE id = $ref' : 'SELECT id, name FROM datasets WHERE name = $ref', { ref });
  if (!row) throw new Refusal(noDataset(ref));
  return row;
}

export async function listDatasets(q: Queryable): Promise<DatasetDto[]> {
  return (await q.all<DatasetRow>(ALL)).map(toDto);
}

const uniqueLabels = (labels: readonly string[]) => [...new Set(labels.map((l) => l.trim()))];

export interface DatasetFields {
  name: string;
  description: string;
  task: DatasetDto['task'];
  labels: string[];
  privacyUnit: DatasetDto['privacyUnit'];
  subjectCap: number;
}

export async function createDataset(q: Queryable, fields: DatasetFields): Promise<number> {
  if (await q.get(NAME_TAKEN, { name: fields.name })) throw new VaultError(`a dataset named "${fields.name}" exists already`);
  if (fields.task === 'generation' && fields.labels.length > 0) throw new VaultError('generation datasets have no label set');
  const { lastId } = await q.run(INSERT, {
    name: fields.name,
    description: fields.description,
    task: fields.task,
    labels: JSON.stringify(uniqueLabels(fields.labels)),
    privacyUnit: fields.privacyUnit,
    subjectCap: fields.subjectCap,
    now: new Date().toISOString(),
  });
  return lastId;
}

export async function updateDataset(q: Queryable, current: DatasetDto, change: Partial<Omit<DatasetFields, 'task'>>): Promise<void> {
  const labels = change.labels ? uniqueLabels(change.labels) : current.labels;
  if (change.labels) {
    const used = (await q.all<{ label: string }>(LABELS_IN_USE, { id: current.id })).map((r) => r.label).filter((l) => !labels.includes(l));
    if (used.length > 0) throw new VaultError(`records still use label(s) ${used.map((l) => `"${l}"`).join(', ')}: relabel them before removing a label`);
  }
  if (change.privacyUnit && change.privacyUnit !== current.privacyUnit) {
    // Charged events protect the unit they were priced for: switching units would let the
    // ledger compose record-level charges as if they protected subjects (group privacy).
    const charges = (await q.get<{ n: number }>(CHARGES, { id: current.id }))?.n ?? 0;
    if (charges > 0) throw new VaultError(`"${current.name}" has ${charges} charge(s) in its privacy ledger priced per ${current.privacyUnit}: its privacy unit can no longer change (create a new dataset for ${change.privacyUnit}-level privacy)`);
  }
  if (change.name && change.name !== current.name && (await q.get(NAME_TAKEN, { name: change.name }))) {
    throw new VaultError(`a dataset named "${change.name}" exists already`);
  }
  await q.run(UPDATE, {
    id: current.id,
    name: change.name ?? current.name,
    description: change.description ?? current.description,
    labels: JSON.stringify(labels),
    privacyUnit: change.privacyUnit ?? current.privacyUnit,
    subjectCap: change.subjectCap ?? current.subjectCap,
    now: new Date().toISOString(),
  });
}

export function touchDataset(q: Queryable, id: number) {
  return q.run(TOUCH, { id, now: new Date().toISOString() });
}
