/**
 * A React root in a fresh <div> for every test of a jsdom test file: `mountEachTest()` creates
 * it before each test and unmounts and removes it after. `container` and `root` are live
 * bindings, so a test reads them as if they were its own variables.
 */
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach } from 'vitest';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

export let container: HTMLDivElement;
export let root: Root;

/** Unmount what the root shows and start a fresh root in the same container (a page opened again). */
export function remount(): void {
  act(() => root.unmount());
  root = createRoot(container);
}

export function mountEachTest(): void {
  beforeEach(() => {
    container = document.createElement('div');
    document.body.append(container);
    root = createRoot(container);
  });
  afterEach(() => {
    act(() => root.unmount());
    container.remove();
  });
}
