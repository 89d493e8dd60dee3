/**
 * The "Records" section: search and filters, bulk actions on the selection, the
 * virtualised table with inline label edits, and the record drawer. Keyed by dataset,
 * so switching datasets starts with a clean query and selection; the table is keyed by
 * the query, so a new search, filter or order starts at its top.
 */
import { Alert, Typography } from '@mui/material';
import { useCallback, useMemo, useState } from 'react';
import type { DatasetDto, RecordRow } from '../../../../electron/shared/api/vault';
import type { VeilApi } from '../../../../electron/shared/contract';
import { formatCount } from '../../components/format';
import { Section } from '../../components/Section';
import { useAsyncAction } from '../../components/useAsyncAction';
import { BulkActions } from './BulkActions';
import { RecordDrawer } from './RecordDrawer';
import { RecordFilters } from './RecordFilters';
import { emptyFilter, nextSort, toRecordFilter, type FilterState, type RecordQuery, type SortColumn } from './recordQuery';
import { RecordTable } from './RecordTable';
import { clickRow, emptySelection, selectedCount, type Selection } from './selection';
import { useDebounced } from './useDebounced';
import { useRecordPages } from './useRecordPages';
import { RetryAlert } from '../../components/RetryAlert';

const SEARCH_DEBOUNCE_MS = 300;

interface Props {
  api: VeilApi;
  dataset: DatasetDto;
  tags: readonly string[];
  revision: number;
  onChanged: () => void;
}

export function RecordsPanel({ api, dataset, tags, revision, onChanged }: Props) {
  const [filter, setFilter] = useState<FilterState>(emptyFilter);
  const [sort, setSort] = useState<Pick<RecordQuery, 'order' | 'descending'>>({ order: 'id', descending: false });
  const [selection, setSelection] = useState<Selection>(emptySelection);
  const [openId, setOpenId] = useState<number | null>(null);
  /** A sort button pressed: it keeps the focus when the table remounts for the new order. */
  const [sortedBy, setSortedBy] = useState<SortColumn | null>(null);
  const search = useDebounced(filter.search, SEARCH_DEBOUNCE_MS);
  const queryKey = JSON.stringify({ filter: toRecordFilter({ ...filter, search }), ...sort });
  const query = useMemo(() => JSON.parse(queryKey) as RecordQuery, [queryKey]);
  const pages = useRecordPages(api, dataset.id, query, revision);
  const labelEdit = useAsyncAction();

  const changeQuery = (next: FilterState) => (setFilter(next), setSortedBy(null), setSelection(emptySelection));
  const sortBy = (column: SortColumn) => (setSort(nextSort(sort, column)), setSortedBy(column), setSelection(emptySelection));
  const { rowAt, patch } = pages;
  const { run } = labelEdit;
  const setLabel = useCallback(
    async (row: RecordRow, label: string | null) => {
      const updated = await run(() => api['vault.updateRecord']({ id: row.id, label }));
      if (!updated) return;
      patch(updated);
      onChanged();
    },
    [api, run, patch, onChanged],
  );
  const toggle = useCallback((index: number, id: number, shift: boolean) => setSelection((s) => clickRow(s, index, id, shift, (i) => rowAt(i)?.id)), [rowAt]);
  const open = useCallback((_index: number, id: number) => setOpenId(id), []);
  const total = pages.total;

  return (
    <Section title="Records">
      <RecordFilters filter={filter} labels={dataset.labels} tags={tags} onChange={changeQuery} />
      {total !== null && selectedCount(selection, total) > 0 && (
        <BulkActions
          api={api}
          dataset={dataset.id}
          selection={selection}
          total={total}
          filter={query.filter}
          labels={dataset.labels}
          onDone={(deleted) => (deleted && setSelection(emptySelection), onChanged())}
          onSelectAll={() => setSelection({ kind: 'all' })}
          onClear={() => setSelection(emptySelection)}
        />
      )}
      {labelEdit.error && <Alert severity="error">Could not change the label: {labelEdit.error}</Alert>}
      <RetryAlert what="read records" error={pages.error} onRetry={pages.refresh} />
      <Typography variant="body2" color="text.secondary" role="status" aria-label="record count">
        {total === null ? 'Loading records…' : `${formatCount(total)} record${total === 1 ? '' : 's'}${Object.keys(query.filter).length > 0 ? ' match' : ''}`}
      </Typography>
      {total !== null && (
        <RecordTable
          key={queryKey}
          total={total}
          rowAt={pages.rowAt}
          showRange={pages.showRange}
          labels={dataset.task === 'classification' ? dataset.labels : null}
          selection={selection}
          onSelectAll={(all) => setSelection(all ? { kind: 'all' } : emptySelection)}
          sort={sort}
          onSort={sortBy}
          focusSort={sortedBy}
          search={query.filter.search ?? ''}
          onToggle={toggle}
          onOpen={open}
          onLabel={setLabel}
        />
      )}
      {openId !== null && <RecordDrawer api={api} id={openId} dataset={dataset} revision={revision} onClose={() => setOpenId(null)} onUpdated={pages.patch} onChanged={onChanged} />}
    </Section>
  );
}
