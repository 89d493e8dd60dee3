/**
 * The record table's query: filter controls as the page holds them, turned into the
 * `vault.records` filter (empty choices left out, the search trimmed), plus the sort order.
 */
import type { PiiKind } from '../../../../core/pii/types';
import type { RecordFilter, Split } from '../../../../electron/shared/api/vault';

export interface FilterState {
  search: string;
  /** "" stands for records without a label. */
  labels: string[];
  splits: Split[];
  pii: (PiiKind | 'any')[];
  tags: string[];
}

export type SortColumn = 'id' | 'label' | 'split';

export interface RecordQuery {
  filter: RecordFilter;
  order: SortColumn;
  descending: boolean;
}

export const emptyFilter: FilterState = { search: '', labels: [], splits: [], pii: [], tags: [] };

export function toRecordFilter(state: FilterState): RecordFilter {
  const filter: RecordFilter = {};
  const search = state.search.trim();
  if (search) filter.search = search;
  if (state.labels.length) filter.labels = state.labels;
  if (state.splits.length) filter.splits = state.splits;
  if (state.pii.length) filter.pii = state.pii;
  if (state.tags.length) filter.tags = state.tags;
  return filter;
}

export function isFiltered(state: FilterState): boolean {
  return Object.keys(toRecordFilter(state)).length > 0;
}

/** Clicking a sortable header: the same column flips direction, another column sorts ascending. */
export function nextSort(query: Pick<RecordQuery, 'order' | 'descending'>, column: SortColumn): Pick<RecordQuery, 'order' | 'descending'> {
  return query.order === column ? { order: column, descending: !query.descending } : { order: column, descending: false };
}
