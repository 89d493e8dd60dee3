/**
 * Rows of the record table, fetched page by page through `vault.records` for the range the
 * table shows. A new dataset or query starts afresh; a revision (the vault changed) re-fetches
 * the visible pages while the old rows stay on screen. While the view scrolls, pages are
 * requested only once it has rested for SCROLL_SETTLE_MS. The total comes from the API.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { RecordRow } from '../../../../electron/shared/api/vault';
import type { VeilApi } from '../../../../electron/shared/contract';
import { errorMessage } from '../../components/format';
import { PAGE_SIZE, PageCache, pagesForRange } from './recordPages';
import type { RecordQuery } from './recordQuery';

const SCROLL_SETTLE_MS = 80;

/** The pages of the rows in view — at least the first row's page, so an empty table still learns its total. */
const visiblePages = (first: number, last: number) => pagesForRange(first, Math.max(first, last));

export function useRecordPages(api: VeilApi, dataset: number, query: RecordQuery, revision: number) {
  const [cache] = useState(() => new PageCache<RecordRow>());
  const [total, setTotal] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [, setFilled] = useState(0);
  const range = useRef<[number, number]>([0, PAGE_SIZE - 1]);

  const load = useCallback(
    (pages: number[]) => {
      const generation = cache.generation;
      for (const page of cache.claim(pages)) {
        api['vault.records']({ dataset, ...query, offset: page * PAGE_SIZE, limit: PAGE_SIZE }).then(
          (result) => {
            if (!cache.fill(generation, page, result.rows)) return;
            setTotal(result.total);
            setError(null);
            setFilled((n) => n + 1);
          },
          (err: unknown) => {
            cache.release(generation, page);
            if (generation === cache.generation) setError(errorMessage(err));
          },
        );
      }
    },
    [api, cache, dataset, query],
  );

  useEffect(() => {
    cache.invalidate(false);
    range.current = [0, PAGE_SIZE - 1];
    setTotal(null);
    load(visiblePages(0, PAGE_SIZE - 1));
  }, [cache, load]);

  const refresh = useCallback(() => {
    cache.invalidate(true);
    load(visiblePages(...range.current));
  }, [cache, load]);

  const revisionSeen = useRef(revision);
  useEffect(() => {
    if (revisionSeen.current === revision) return;
    revisionSeen.current = revision;
    refresh();
  }, [revision, refresh]);

  // Scrolling (a dragged scrollbar passes hundreds of pages) loads only where it comes to rest.
  const settle = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(settle.current), []);
  const showRange = useCallback(
    (first: number, last: number) => {
      range.current = [first, last];
      clearTimeout(settle.current);
      settle.current = setTimeout(() => load(visiblePages(...range.current)), SCROLL_SETTLE_MS);
    },
    [load],
  );

  const patch = useCallback(
    (row: RecordRow) => {
      cache.patch(row);
      setFilled((n) => n + 1);
    },
    [cache],
  );

  const rowAt = useCallback((index: number) => cache.row(index), [cache]);
  return { total, error, rowAt, showRange, refresh, patch };
}
