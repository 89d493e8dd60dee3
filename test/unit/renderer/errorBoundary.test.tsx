// @vitest-environment jsdom
/**
 * ErrorBoundary in jsdom: a page that throws shows the error and a "Try again" button that
 * re-renders it; changing the route (resetKey) also clears the error.
 */
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ErrorBoundary } from '../../../renderer/src/components/ErrorBoundary';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let failing = true;
function Page() {
  if (failing) throw new Error('boom: the vault is unreachable');
  return <h1>Vault</h1>;
}

let container: HTMLDivElement;
let root: Root;
const caught = vi.fn();
beforeEach(() => {
  failing = true;
  caught.mockClear();
  container = document.body.appendChild(document.createElement('div'));
  root = createRoot(container, { onCaughtError: caught });
});
afterEach(() => {
  act(() => root.unmount());
  container.remove();
});

const show = (resetKey: string) => act(() => root.render(<ErrorBoundary resetKey={resetKey}><Page /></ErrorBoundary>));
const alertText = () => container.querySelector('[role="alert"]')?.textContent;

describe('ErrorBoundary', () => {
  it('shows the error instead of the page, and "Try again" renders the page again', () => {
    show('/vault');
    expect(alertText()).toContain('This page failed: boom: the vault is unreachable');
    expect(container.querySelector('h1')).toBeNull();
    expect(caught).toHaveBeenCalledOnce();

    failing = false;
    const retry = [...container.querySelectorAll('button')].find((b) => b.textContent === 'Try again')!;
    act(() => retry.click());
    expect(alertText()).toBeUndefined();
    expect(container.querySelector('h1')?.textContent).toBe('Vault');
  });

  it('stays on the error while the route is unchanged and clears it on navigation', () => {
    show('/vault');
    failing = false;
    show('/vault');
    expect(alertText()).toContain('boom');
    show('/budget');
    expect(alertText()).toBeUndefined();
    expect(container.querySelector('h1')?.textContent).toBe('Vault');
  });
});
