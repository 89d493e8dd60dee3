/**
 * The virtualised record table (@tanstack/react-virtual): only the rows in view are in the
 * DOM, so 100,000 records scroll smoothly; rows are fetched by the page as they come into
 * view. Keyboard: ↑/↓/PgUp/PgDn/Home/End move the active row, Space selects it (Shift+Space
 * a range), Enter opens it, E or F2 edits its label (classification datasets: generation
 * records have no label). The sort buttons and "select all" are ordinary tab stops. The page
 * remounts the table (a React key) when its query changes, so it starts at the top.
 */
import { Box, TableSortLabel, Typography } from '@mui/material';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { RecordRow } from '../../../../electron/shared/api/vault';
import type { RecordQuery, SortColumn } from './recordQuery';
import { COLUMNS, COLUMNS_MIN_WIDTH, recordRowStyles, ROW_HEIGHT, RecordTableRow, type RowHandlers } from './RecordTableRow';
import { isSelected, type Selection } from './selection';
import { nextActiveRow } from './tableKeys';
import { searchPattern } from './searchHighlight';

interface Props extends Omit<RowHandlers, 'onEditLabel'> {
  total: number;
  rowAt: (index: number) => RecordRow | undefined;
  showRange: (first: number, last: number) => void;
  /** The public label set offered when editing a label; null: the records have no label (generation). */
  labels: readonly string[] | null;
  selection: Selection;
  onSelectAll: (all: boolean) => void;
  sort: Pick<RecordQuery, 'order' | 'descending'>;
  onSort: (column: SortColumn) => void;
  /** The sort button to focus on mount: the table was remounted by a sort from the keyboard. */
  focusSort?: SortColumn | null;
  /** The search, whose words are marked in the rows. */
  search?: string;
}

/** Keys acting on the active row (after bringing it into view): select, open, edit its label. */
const SELECT_KEYS = [' ', 'Enter'];
const EDIT_KEYS = ['e', 'E', 'F2'];
const HEADERS: [string, SortColumn | null][] = [['ID', 'id'], ['Text', null], ['Label', 'label'], ['Split', 'split'], ['Subject', null], ['Tags', null], ['PII', null]];

/** Focuses an element when it is mounted: the sort button pressed before the table remounted (a span, so no autoFocus). */
const focusOnMount = (element: HTMLElement | null) => element?.focus();

const keyHelp = (labelled: boolean) => `Keys in the table: ↑ ↓ PgUp PgDn Home End move · Space selects (Shift+Space: a range) · Enter opens${labelled ? ' · E edits the label' : ''}`;

export function RecordTable({ total, rowAt, showRange, labels, selection, onSelectAll, sort, onSort, focusSort, search = '', onToggle, onOpen, onLabel }: Props) {
  const highlight = useMemo(() => searchPattern(search), [search]);
  const gridId = useId();
  const keysId = useId();
  const scroller = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState(0);
  const [editing, setEditing] = useState<number | null>(null);
  const virtualizer = useVirtualizer({ count: total, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 12, paddingStart: ROW_HEIGHT, scrollPaddingStart: ROW_HEIGHT });
  const items = virtualizer.getVirtualItems();
  const [first, last] = [items[0]?.index ?? 0, items.at(-1)?.index ?? -1];
  useEffect(() => showRange(first, last), [first, last, showRange]);

  const activeRow = Math.min(active, Math.max(total - 1, 0));
  const move = (index: number) => (setActive(index), virtualizer.scrollToIndex(index));
  const editLabel = useCallback((id: number | null) => {
    setEditing(id);
    if (id === null) requestAnimationFrame(() => scroller.current?.focus());
  }, []);
  const openRow = useCallback((index: number, id: number) => (setActive(index), onOpen(index, id)), [onOpen]);
  const setLabel = useCallback((row: RecordRow, label: string | null) => (editLabel(null), onLabel(row, label)), [editLabel, onLabel]);
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.target !== e.currentTarget || total === 0) return;
    const row = rowAt(activeRow);
    const next = nextActiveRow(e.key, activeRow, total, Math.floor((scroller.current?.clientHeight ?? 0) / ROW_HEIGHT) - 1);
    if (next !== null) move(next);
    else if (row && (SELECT_KEYS.includes(e.key) || (labels && EDIT_KEYS.includes(e.key) && !e.ctrlKey && !e.metaKey && !e.altKey))) {
      virtualizer.scrollToIndex(activeRow);
      if (e.key === ' ') onToggle(activeRow, row.id, e.shiftKey);
      else if (e.key === 'Enter') onOpen(activeRow, row.id);
      else editLabel(row.id);
    } else return;
    e.preventDefault();
  };
  const allSelected = selection.kind === 'all';

  return (
    <>
      <Box
        ref={scroller}
        role="grid"
        aria-label="records"
        aria-rowcount={total + 1}
        aria-multiselectable
        aria-activedescendant={items.some((i) => i.index === activeRow) ? `${gridId}-${activeRow}` : undefined}
        aria-describedby={keysId}
        tabIndex={0}
        onKeyDown={onKeyDown}
        sx={{ height: 'min(62vh, 680px)', overflow: 'auto', position: 'relative', border: 1, borderColor: 'divider', borderRadius: 1, '&:focus-visible': { outline: 2, outlineColor: 'primary.main' }, '&:focus [data-active]': { outline: 2, outlineColor: 'primary.main', outlineOffset: -2 }, ...recordRowStyles }}
      >
        <Box sx={{ height: virtualizer.getTotalSize(), minWidth: COLUMNS_MIN_WIDTH, position: 'relative' }}>
          <Box role="row" aria-rowindex={1} sx={{ position: 'sticky', top: 0, zIndex: 1, height: ROW_HEIGHT, display: 'grid', gridTemplateColumns: COLUMNS, alignItems: 'center', bgcolor: 'background.paper', borderBottom: 2, borderColor: 'divider', fontWeight: 500 }}>
            <Box role="columnheader">
              <input type="checkbox" checked={allSelected} ref={(el) => void (el && (el.indeterminate = !allSelected && selection.ids.size > 0))} onChange={(e) => onSelectAll(e.target.checked)} aria-label="Select every matching record" />
            </Box>
            {HEADERS.map(([name, column]) => (
              <Box key={name} role="columnheader" aria-sort={column && sort.order === column ? (sort.descending ? 'descending' : 'ascending') : undefined} sx={{ px: 1 }}>
                {column ? (
                  <TableSortLabel ref={focusSort === column ? focusOnMount : undefined} active={sort.order === column} direction={sort.descending ? 'desc' : 'asc'} onClick={() => onSort(column)}>
                    {name}
                  </TableSortLabel>
                ) : (
                  name
                )}
              </Box>
            ))}
          </Box>
          {total === 0 && (
            <Typography role="status" sx={{ p: 2 }} color="text.secondary">
              No records match.
            </Typography>
          )}
          {items.map((item) => {
            const row = rowAt(item.index);
            return (
              <RecordTableRow
                key={item.key}
                id={`${gridId}-${item.index}`}
                index={item.index}
                top={item.start}
                row={row}
                active={item.index === activeRow}
                selected={row !== undefined && isSelected(selection, row.id)}
                selectionLocked={allSelected}
                editing={row !== undefined && editing === row.id}
                labels={labels}
                highlight={highlight}
                onToggle={onToggle}
                onOpen={openRow}
                onEditLabel={editLabel}
                onLabel={setLabel}
              />
            );
          })}
        </Box>
      </Box>
      <Typography id={keysId} variant="caption" color="text.secondary">
        {keyHelp(labels !== null)}
      </Typography>
    </>
  );
}
