// @vitest-environment jsdom
/** The drawer's PII findings: redact a kind, all, or one span of a kind that has several (a false positive can stay). */
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PiiFinding } from '../../../../../core/pii/types';
import { PiiFindings } from '../../../../../renderer/src/pages/vault/PiiFindings';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const text = 'Mail ann@example.org or sales@example.com, call 415 555 0100.';
const findings: PiiFinding[] = [
  { kind: 'email', start: 5, end: 20 },
  { kind: 'email', start: 24, end: 41 },
  { kind: 'phone', start: 48, end: 60 },
];

let container: HTMLDivElement;
let root: Root;
beforeEach(() => {
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
});
afterEach(() => {
  act(() => root.unmount());
  container.remove();
});

const button = (label: string) => container.querySelector<HTMLButtonElement>(`button[aria-label="${label}"]`) ?? [...container.querySelectorAll('button')].find((b) => b.textContent === label)!;

describe('PiiFindings', () => {
  it('redacts one span of a kind with several, a whole kind, or everything', () => {
    const onRedact = vi.fn();
    act(() => root.render(<PiiFindings text={text} findings={findings} busy={false} onRedact={onRedact} />));
    // Each e-mail span is listed with its text; the single phone finding needs no list.
    expect([...container.querySelectorAll('code')].map((c) => c.textContent)).toEqual(['ann@example.org', 'sales@example.com']);
    act(() => button('Redact only “sales@example.com” (email)').click());
    expect(onRedact).toHaveBeenLastCalledWith({ spans: [findings[1]] });
    act(() => button('Redact phone').click());
    expect(onRedact).toHaveBeenLastCalledWith({ kinds: ['phone'] });
    act(() => button('Redact all').click());
    expect(onRedact).toHaveBeenLastCalledWith();
  });
});
