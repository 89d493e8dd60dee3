/**
 * One row of the virtualised record table: selection checkbox (shift-click selects a
 * range), id, one line of text, label (editable in place where the dataset has a label set),
 * split, subject, tags and PII kinds.
 * Rows are plain memoised elements styled once by the table (`recordRowStyles`), so a
 * scroll renders only the rows that come into view. A row not loaded yet shows a placeholder.
 */
import type { SxProps, Theme } from '@mui/material';
import { memo } from 'react';
import type { RecordRow } from '../../../../electron/shared/api/vault';
import { ChoiceSelect } from './ChoiceSelect';
import { NO_LABEL, splitName } from './chartData';
import { labelOptions } from './options';
import { highlightSegments } from './searchHighlight';

export const ROW_HEIGHT = 40;
export const COLUMNS = '40px 64px minmax(220px, 1fr) 120px 84px 100px 130px 150px';
export const COLUMNS_MIN_WIDTH = 908;
const PREVIEW_CHARS = 240;

/** Row and cell styles, set on the table container. */
export const recordRowStyles: SxProps<Theme> = {
  '& [data-row]': { position: 'absolute', left: 0, right: 0, height: ROW_HEIGHT, display: 'grid', gridTemplateColumns: COLUMNS, alignItems: 'center', typography: 'body2', borderBottom: 1, borderColor: 'divider' },
  '& [data-record]': { cursor: 'pointer', '&:hover': { bgcolor: 'action.hover' } },
  '& [data-row][aria-selected=true]': { bgcolor: 'action.selected' },
  '& [data-row] > [role=gridcell]': { px: 1, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  '& [data-pii]': { color: 'warning.main' },
  '& mark[data-hit]': { bgcolor: 'warning.light', color: 'warning.contrastText', borderRadius: 0.5, px: 0.25 },
  '& [data-loading]': { gridColumn: '1 / -1', height: 12, mx: 1, borderRadius: 1, bgcolor: 'action.hover' },
  '& [data-label-button]': { font: 'inherit', color: 'inherit', bgcolor: 'transparent', border: 0, px: 0.5, py: 0.25, borderRadius: 1, cursor: 'pointer', maxWidth: '100%', overflow: 'hidden', textOverflow: 'ellipsis', textAlign: 'left', '&:hover': { bgcolor: 'action.focus' } },
  '& input[type=checkbox]': { display: 'block', width: 16, height: 16, m: 0, ml: 1.5, accentColor: (theme: Theme) => theme.palette.primary.main, cursor: 'pointer' },
};

export interface RowHandlers {
  onToggle: (index: number, id: number, shift: boolean) => void;
  onOpen: (index: number, id: number) => void;
  onEditLabel: (id: number | null) => void;
  onLabel: (row: RecordRow, label: string | null) => void;
}

interface Props extends RowHandlers {
  id: string;
  index: number;
  top: number;
  row: RecordRow | undefined;
  active: boolean;
  selected: boolean;
  selectionLocked: boolean;
  editing: boolean;
  /** null: the records have no label (a generation dataset), so there is nothing to edit. */
  labels: readonly string[] | null;
  /** The table's search words (`searchPattern`): marked in the text and subject cells. */
  highlight?: RegExp | null;
}

/** Text with the search's hits in <mark> elements: React nodes, never HTML. */
export function Highlighted({ text, pattern }: { text: string; pattern: RegExp | null }) {
  if (!pattern) return text;
  return highlightSegments(text, pattern).map((s, i) =>
    s.hit ? (
      <mark key={i} data-hit>
        {s.text}
      </mark>
    ) : (
      s.text
    ),
  );
}

const stop = (e: { stopPropagation: () => void }) => e.stopPropagation();

export const RecordTableRow = memo(function RecordTableRow({ id, index, top, row, active, selected, selectionLocked, editing, labels, highlight = null, ...on }: Props) {
  if (!row)
    return (
      <div id={id} data-row role="row" aria-rowindex={index + 2} style={{ top }}>
        <div role="gridcell" aria-label="loading" data-loading />
      </div>
    );
  const kinds = [...new Set(row.pii.map((f) => f.kind))].join(', ');
  return (
    <div id={id} data-row data-record data-testid={`record-row-${row.id}`} data-active={active || undefined} role="row" aria-rowindex={index + 2} aria-selected={selected} style={{ top }} onClick={() => on.onOpen(index, row.id)}>
      <div role="gridcell" onClick={stop}>
        <input type="checkbox" tabIndex={-1} checked={selected} disabled={selectionLocked} aria-label={`Select record ${row.id}`} onChange={(e) => on.onToggle(index, row.id, (e.nativeEvent as MouseEvent).shiftKey === true)} />
      </div>
      <div role="gridcell">{row.id}</div>
      <div role="gridcell">
        <Highlighted text={row.text.slice(0, PREVIEW_CHARS).replace(/\s+/g, ' ')} pattern={highlight} />
      </div>
      <div role="gridcell" onClick={editing ? stop : undefined}>
        {labels === null ? (
          (row.label ?? '')
        ) : editing ? (
          <ChoiceSelect label={`Label of record ${row.id}`} options={labelOptions(labels)} value={row.label ?? ''} onChange={(v) => on.onLabel(row, v === '' ? null : v)} onCancel={() => on.onEditLabel(null)} />
        ) : (
          <button type="button" data-label-button tabIndex={-1} onClick={(e) => (stop(e), on.onEditLabel(row.id))} aria-label={`Edit label of record ${row.id}`} title="Edit label (E)">
            {row.label ?? NO_LABEL}
          </button>
        )}
      </div>
      <div role="gridcell">{splitName[row.split]}</div>
      <div role="gridcell">
        <Highlighted text={row.subject ?? ''} pattern={highlight} />
      </div>
      <div role="gridcell">{row.tags.join(', ')}</div>
      <div role="gridcell" data-pii={kinds ? '' : undefined}>
        {kinds}
      </div>
    </div>
  );
});
