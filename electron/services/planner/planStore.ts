/** Saved plans in the app database (migration 4): save, list (newest first), find by id or name, delete. */
import { planRequestSchema, type PlanRequest, type SavedPlan } from '../../shared/api/planner';
import type { Database } from '../db/database';
import { RefusalError } from '../refusalError';

interface PlanRow {
  id: number;
  name: string;
  created_at: string;
  request_json: string;
}

const INSERT = 'INSERT INTO plans (name, dataset_name, created_at, request_json) VALUES ($name, $dataset, $createdAt, $request)';
const SELECT_ALL = 'SELECT * FROM plans WHERE $dataset IS NULL OR dataset_name = $dataset ORDER BY id DESC LIMIT 500';
const SELECT_BY_ID = 'SELECT * FROM plans WHERE id = $id';
const SELECT_BY_NAME = 'SELECT * FROM plans WHERE name = $name ORDER BY id DESC LIMIT 1';
const DELETE = 'DELETE FROM plans WHERE id = $id';

const toPlan = (row: PlanRow): SavedPlan => ({
  id: row.id,
  name: row.name,
  createdAt: row.created_at,
  request: planRequestSchema.parse(JSON.parse(row.request_json)),
});

export class PlanStore {
  constructor(private readonly db: Database) {}

  async save(name: string, request: PlanRequest): Promise<SavedPlan> {
    const createdAt = new Date().toISOString();
    const { lastId } = await this.db.run(INSERT, { name, dataset: request.dataset, createdAt, request: JSON.stringify(request) });
    return { id: lastId, name, createdAt, request };
  }

  async list(dataset?: string): Promise<SavedPlan[]> {
    return (await this.db.all<PlanRow>(SELECT_ALL, { dataset: dataset ?? null })).map(toPlan);
  }

  /** A plan by id, or the newest one with this name. */
  async find(ref: number | string): Promise<SavedPlan> {
    const row = await this.db.get<PlanRow>(typeof ref === 'number' ? SELECT_BY_ID : SELECT_BY_NAME, typeof ref === 'number' ? { id: ref } : { name: ref });
    if (!row) throw new RefusalError(`no saved plan ${typeof ref === 'number' ? `with id ${ref}` : `named "${ref}"`}`);
    return toPlan(row);
  }

  async delete(id: number): Promise<boolean> {
    return (await this.db.run(DELETE, { id })).changes > 0;
  }
}
