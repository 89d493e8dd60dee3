/**
 * A record filter as a SQL condition with named parameters. Every value is bound, never
 * spliced; list parameters are bound as JSON and read with json_each.
 */
import type { RecordFilter } from '../../shared/api/vault';
import type { Params } from '../db/database';

/** FTS5 query from free text: each word quoted (no operators from the user), `word*` kept as a prefix. */
function ftsQuery(search: string): string | null {
  const words = search.match(/[\p{L}\p{N}_]+\*?/gu) ?? [];
  return words.length === 0 ? null : words.map((w) => (w.endsWith('*') ? `"${w.slice(0, -1)}"*` : `"${w}"`)).join(' ');
}

/**
 * `inIdOrder`: the caller pages in id order (`r.id > $after ORDER BY r.id LIMIT n`). The
 * dataset condition is then `+r.dataset_id`, which keeps SQLite off the indexes that start
 * with dataset_id: it walks the rowid range instead of reading and sorting every remaining row
 * of the dataset for each page (quadratic over an export; the PII rescan's PAGE_SQL does the same).
 */
export function filterSql(datasetId: number, filter: RecordFilter, { inIdOrder = false } = {}): { where: string; params: Params } {
  const clauses = [inIdOrder ? '+r.dataset_id = $datasetId' : 'r.dataset_id = $datasetId'];
  const params: Params = { datasetId };
  const search = filter.search ? ftsQuery(filter.search) : null;
  if (search) {
    clauses.push('r.id IN (SELECT rowid FROM records_fts WHERE records_fts MATCH $search)');
    params.search = search;
  }
  // One split or one (non-empty) label is an equality, which the (dataset, split) and (dataset,
  // label) indexes answer in id order (migration 21); a list is read with json_each.
  if (filter.splits?.length === 1) {
    clauses.push('r.split = $split');
    params.split = filter.splits[0];
  } else if (filter.splits?.length) {
    clauses.push('r.split IN (SELECT value FROM json_each($splits))');
    params.splits = JSON.stringify(filter.splits);
  }
  if (filter.labels?.length === 1 && filter.labels[0] !== '') {
    clauses.push('r.label = $label');
    params.label = filter.labels[0];
  } else if (filter.labels?.length) {
    clauses.push(`COALESCE(r.label, '') IN (SELECT value FROM json_each($labels))`);
    params.labels = JSON.stringify(filter.labels);
  }
  if (filter.pii?.length) {
    if (filter.pii.includes('any')) clauses.push(`r.pii_kinds <> ''`);
    else {
      clauses.push(`EXISTS (SELECT 1 FROM json_each($pii) p WHERE instr(',' || r.pii_kinds || ',', ',' || p.value || ',') > 0)`);
      params.pii = JSON.stringify(filter.pii);
    }
  }
  if (filter.subjects?.length) {
    clauses.push('r.subject_id IN (SELECT value FROM json_each($subjects))');
    params.subjects = JSON.stringify(filter.subjects);
  }
  if (filter.tags?.length) {
    clauses.push('EXISTS (SELECT 1 FROM json_each(r.tags_json) t WHERE t.value IN (SELECT value FROM json_each($tags)))');
    params.tags = JSON.stringify(filter.tags);
  }
  return { where: clauses.join(' AND '), params };
}
