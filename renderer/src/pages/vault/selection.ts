/**
 * Row selection in the record table: single toggles, shift-click ranges (over the rows
 * that are loaded), or "every record matching the filter" — which a bulk action targets by
 * filter, so 100,000 rows never travel as ids.
 */
import type { RecordFilter } from '../../../../electron/shared/api/vault';

export type Selection = { kind: 'ids'; ids: ReadonlySet<number>; anchor: number | null } | { kind: 'all' };

export const emptySelection: Selection = { kind: 'ids', ids: new Set(), anchor: null };

export function isSelected(selection: Selection, id: number): boolean {
  return selection.kind === 'all' || selection.ids.has(id);
}

export function selectedCount(selection: Selection, total: number): number {
  return selection.kind === 'all' ? total : selection.ids.size;
}

/**
 * A click on row `index` (record `id`). Without shift it toggles the row and moves the
 * anchor; with shift it selects every loaded row from the anchor to `index`. While every
 * matching record is selected, single rows cannot be toggled (clear the selection first).
 */
export function clickRow(selection: Selection, index: number, id: number, shift: boolean, idAt: (index: number) => number | undefined): Selection {
  if (selection.kind === 'all') return selection;
  const ids = new Set(selection.ids);
  const anchor = selection.anchor;
  if (shift && anchor !== null) {
    for (let i = Math.min(anchor, index); i <= Math.max(anchor, index); i++) {
      const rowId = idAt(i);
      if (rowId !== undefined) ids.add(rowId);
    }
    return { kind: 'ids', ids, anchor };
  }
  if (ids.has(id)) ids.delete(id);
  else ids.add(id);
  return { kind: 'ids', ids, anchor: index };
}

/** What `vault.bulk` acts on. */
export function bulkTarget(selection: Selection, filter: RecordFilter): { ids: number[] } | { filter: RecordFilter } {
  return selection.kind === 'all' ? { filter } : { ids: [...selection.ids] };
}
