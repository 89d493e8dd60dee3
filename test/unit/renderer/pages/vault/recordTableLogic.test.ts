/** Vault record table logic without a DOM: the page cache, row selection, keyboard movement, query building. */
import { describe, expect, it } from 'vitest';
import { PageCache, pagesForRange } from '../../../../../renderer/src/pages/vault/recordPages';
import { emptyFilter, isFiltered, nextSort, toRecordFilter } from '../../../../../renderer/src/pages/vault/recordQuery';
import { bulkTarget, clickRow, emptySelection, isSelected, selectedCount, type Selection } from '../../../../../renderer/src/pages/vault/selection';
import { nextActiveRow } from '../../../../../renderer/src/pages/vault/tableKeys';

const rows = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ id: from + i }));

describe('pagesForRange', () => {
  it('covers the range with whole pages', () => {
    expect(pagesForRange(0, 199)).toEqual([0]);
    expect(pagesForRange(150, 450)).toEqual([0, 1, 2]);
    expect(pagesForRange(99_990, 99_999)).toEqual([499]);
    expect(pagesForRange(0, -1)).toEqual([]);
    expect(pagesForRange(3, 12, 5)).toEqual([0, 1, 2]);
  });
});

describe('PageCache', () => {
  it('claims each missing page once, serves rows by index and refuses answers to an older generation', () => {
    const cache = new PageCache<{ id: number }>(10, 100);
    expect(cache.claim([0, 1])).toEqual([0, 1]);
    expect(cache.claim([0, 1, 2])).toEqual([2]);
    const old = cache.generation;
    expect(cache.fill(old, 1, rows(11, 10))).toBe(true);
    expect(cache.row(15)?.id).toBe(16);
    expect(cache.row(5)).toBeUndefined();
    expect(cache.claim([1])).toEqual([]);

    cache.invalidate(true);
    expect(cache.row(15)?.id).toBe(16); // stale rows stay on screen
    expect(cache.fill(old, 0, rows(1, 10))).toBe(false);
    expect(cache.row(0)).toBeUndefined();
    expect(cache.claim([0, 1])).toEqual([0, 1]);
    cache.invalidate(false);
    expect(cache.row(15)).toBeUndefined();
  });

  it('lets a failed page be claimed again, and only for the current generation', () => {
    const cache = new PageCache<{ id: number }>(10, 100);
    cache.claim([3]);
    cache.release(cache.generation, 3);
    expect(cache.claim([3])).toEqual([3]);
    cache.release(cache.generation - 1, 3);
    expect(cache.claim([3])).toEqual([]);
  });

  it('evicts the oldest pages past its bound and patches edited rows in place', () => {
    const cache = new PageCache<{ id: number; label?: string }>(10, 3);
    for (const p of [0, 1, 2, 3]) {
      cache.claim([p]);
      cache.fill(cache.generation, p, rows(p * 10 + 1, 10));
    }
    expect(cache.row(0)).toBeUndefined();
    expect(cache.claim([0])).toEqual([0]);
    expect(cache.row(35)?.id).toBe(36);
    cache.patch({ id: 36, label: 'ham' });
    expect(cache.row(35)).toEqual({ id: 36, label: 'ham' });
  });
});

describe('selection', () => {
  const idAt = (i: number) => (i === 4 ? undefined : 100 + i);

  it('toggles single rows and selects loaded rows of a shift-click range from the anchor', () => {
    let s: Selection = clickRow(emptySelection, 2, 102, false, idAt);
    expect(isSelected(s, 102)).toBe(true);
    s = clickRow(s, 6, 106, true, idAt);
    expect(s).toEqual({ kind: 'ids', ids: new Set([102, 103, 105, 106]), anchor: 2 }); // row 4 is not loaded
    s = clickRow(s, 3, 103, false, idAt);
    expect(isSelected(s, 103)).toBe(false);
    expect(selectedCount(s, 1000)).toBe(3);
    expect(bulkTarget(s, { search: 'x' })).toEqual({ ids: [102, 105, 106] }); // in the order they were selected
  });

  it('a shift-click without an anchor selects just that row', () => {
    expect(clickRow(emptySelection, 5, 105, true, idAt)).toEqual({ kind: 'ids', ids: new Set([105]), anchor: 5 });
  });

  it('"every matching record" targets the filter and cannot be toggled row by row', () => {
    const all: Selection = { kind: 'all' };
    expect(selectedCount(all, 100_000)).toBe(100_000);
    expect(isSelected(all, 7)).toBe(true);
    expect(clickRow(all, 1, 101, false, idAt)).toBe(all);
    expect(bulkTarget(all, { labels: ['spam'] })).toEqual({ filter: { labels: ['spam'] } });
  });
});

describe('nextActiveRow', () => {
  it('moves within the table and ignores other keys', () => {
    expect(nextActiveRow('ArrowDown', 0, 10, 5)).toBe(1);
    expect(nextActiveRow('ArrowDown', 9, 10, 5)).toBe(9);
    expect(nextActiveRow('ArrowUp', 0, 10, 5)).toBe(0);
    expect(nextActiveRow('PageDown', 0, 100, 11)).toBe(10);
    expect(nextActiveRow('PageUp', 5, 100, 11)).toBe(0);
    expect(nextActiveRow('PageDown', 0, 100, 0)).toBe(1);
    expect(nextActiveRow('End', 3, 100_000, 10)).toBe(99_999);
    expect(nextActiveRow('Home', 500, 1000, 10)).toBe(0);
    expect(nextActiveRow('x', 3, 10, 5)).toBeNull();
    expect(nextActiveRow('ArrowDown', 0, 0, 5)).toBeNull();
  });
});

describe('record query', () => {
  it('leaves empty choices out of the API filter and trims the search', () => {
    expect(toRecordFilter(emptyFilter)).toEqual({});
    expect(isFiltered({ ...emptyFilter, search: '   ' })).toBe(false);
    expect(toRecordFilter({ search: ' viagra* ', labels: ['', 'spam'], splits: ['private'], pii: ['any'], tags: [] })).toEqual({ search: 'viagra*', labels: ['', 'spam'], splits: ['private'], pii: ['any'] });
  });

  it('a header click sorts ascending, a second click flips the direction', () => {
    expect(nextSort({ order: 'id', descending: false }, 'label')).toEqual({ order: 'label', descending: false });
    expect(nextSort({ order: 'label', descending: false }, 'label')).toEqual({ order: 'label', descending: true });
  });
});
