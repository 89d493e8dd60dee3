// @vitest-environment jsdom
/**
 * Hooks in jsdom: useApiQuery never returns what it read for another key (a dataset switch
 * shows "loading", not the last dataset's data) but keeps the data on screen across a refresh
 * of the same key; useRemovedDataset keeps a dataset being deleted out of the page until a
 * list read after the deletion ended, and not after (its id may be reused).
 */
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { describe, expect, it } from 'vitest';
import { useApiQuery } from '../../../renderer/src/components/useApiQuery';
import { useRemovedDataset } from '../../../renderer/src/pages/vault/useRemovedDataset';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

function renderHook<P, R>(hook: (props: P) => R, props: P) {
  const result: { current: R | undefined } = { current: undefined };
  function Probe({ hookProps }: { hookProps: P }) {
    result.current = hook(hookProps);
    return null;
  }
  const root = createRoot(document.createElement('div'));
  act(() => root.render(<Probe hookProps={props} />));
  return { result, rerender: (next: P) => act(() => root.render(<Probe hookProps={next} />)), unmount: () => act(() => root.unmount()) };
}

/** API answers the test resolves by hand, per "dataset:revision". */
function answers() {
  const pending = new Map<string, (value: string) => void>();
  const load = (request: string) => new Promise<string>((resolve) => pending.set(request, resolve));
  const resolve = (request: string) => act(async () => pending.get(request)!(`stats of ${request}`));
  return { load, resolve };
}

describe('useApiQuery', () => {
  it('keeps data across a refresh of the same key and never shows another key’s data', async () => {
    const api = answers();
    const { result, rerender, unmount } = renderHook(({ dataset, revision }: { dataset: string; revision: number }) => useApiQuery(() => api.load(`${dataset}:${revision}`), [revision], dataset), { dataset: 'mail', revision: 0 });
    expect(result.current).toMatchObject({ data: undefined, loading: true });
    await api.resolve('mail:0');
    expect(result.current).toMatchObject({ data: 'stats of mail:0', loading: false });

    rerender({ dataset: 'mail', revision: 1 });
    expect(result.current).toMatchObject({ data: 'stats of mail:0', loading: true });
    await api.resolve('mail:1');
    expect(result.current).toMatchObject({ data: 'stats of mail:1', loading: false });

    rerender({ dataset: 'clinic', revision: 1 });
    expect(result.current).toMatchObject({ data: undefined, loading: true });
    rerender({ dataset: 'mail', revision: 1 }); // back before clinic answered: mail is read again
    await api.resolve('clinic:1'); // a late answer for a key no longer shown is dropped
    expect(result.current?.data).toBe('stats of mail:1');
    unmount();
  });
});

describe('useRemovedDataset', () => {
  it('hides the dataset while it is deleted and until a list read after that is on screen', () => {
    const { result, rerender, unmount } = renderHook(({ revision, listedAt }: { revision: number; listedAt: number }) => useRemovedDataset(revision, listedAt), { revision: 3, listedAt: 3 });
    expect(result.current?.hiddenId).toBeNull();
    act(() => result.current!.removing(2));
    expect(result.current?.hiddenId).toBe(2);
    rerender({ revision: 4, listedAt: 4 }); // a list read while the deletion ran may still hold it
    expect(result.current?.hiddenId).toBe(2);
    act(() => result.current!.removed());
    expect(result.current?.hiddenId).toBe(2); // the list on screen was read before the end
    rerender({ revision: 5, listedAt: 5 });
    expect(result.current?.hiddenId).toBeNull(); // read after the end: a dataset with id 2 now is a new one
    act(() => result.current!.removing(2));
    act(() => result.current!.removing(null)); // the deletion did not remove it (an empty shell stays)
    expect(result.current?.hiddenId).toBeNull();
    unmount();
  });
});
