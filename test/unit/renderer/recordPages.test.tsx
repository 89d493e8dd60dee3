// @vitest-environment jsdom
/** The record table's pages: a scroll across 100,000 rows asks the API only for where it comes to rest. */
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { VeilApi } from '../../../electron/shared/contract';
import { useRecordPages } from '../../../renderer/src/pages/vault/useRecordPages';
import type { RecordQuery } from '../../../renderer/src/pages/vault/recordQuery';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const TOTAL = 100_000;
const query: RecordQuery = { filter: {}, order: 'id', descending: false };

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('useRecordPages', () => {
  it('loads the first page at once, then only the pages in view once scrolling rests', async () => {
    const offsets: number[] = [];
    const api = {
      'vault.records': async ({ offset, limit }: { offset: number; limit: number }) => {
        offsets.push(offset);
        return { total: TOTAL, rows: Array.from({ length: limit }, (_, i) => ({ id: offset + i + 1 })) };
      },
    } as unknown as VeilApi;
    const hook: { current?: ReturnType<typeof useRecordPages> } = {};
    function Probe() {
      hook.current = useRecordPages(api, 1, query, 0);
      return null;
    }
    const root = createRoot(document.createElement('div'));
    await act(async () => root.render(<Probe />));
    expect(offsets).toEqual([0]);
    expect(hook.current!.total).toBe(TOTAL);

    // A dragged scrollbar: 500 ranges over the whole table within 50 ms.
    await act(async () => {
      for (let first = 0; first < TOTAL; first += 200) {
        hook.current!.showRange(first, first + 30);
        vi.advanceTimersByTime(0.1);
      }
      hook.current!.showRange(99_950, 99_980);
    });
    expect(offsets).toEqual([0]);
    await act(async () => vi.advanceTimersByTime(100));
    expect(offsets).toEqual([0, 99_800]);
    expect(hook.current!.rowAt(99_950)).toMatchObject({ id: 99_951 });
    act(() => root.unmount());
  });
});
