// @vitest-environment jsdom
/** The drawer's PII findings: redact a kind, all, or one span of a kind that has several (a false positive can stay). */
import { act } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { container, mountEachTest, root } from '../../reactRoot';
import type { PiiFinding } from '../../../../../core/pii/types';
import { PiiFindings } from '../../../../../renderer/src/pages/vault/PiiFindings';

const text = 'Mail ann@example.org or sales@example.com, call 415 555 0100.';
const findings: PiiFinding[] = [
  { kind: 'email', start: 5, end: 20 },
  { kind: 'email', start: 24, end: 41 },
  { kind: 'phone', start: 48, end: 60 },
];

mountEachTest();

const button = (label: string) => container.querySelector<HTMLButtonElement>(`button[aria-label="${label}"]`) ?? [...container.querySelectorAll('button')].find((b) => b.textContent === label)!;

/** A button of the open dialog (rendered in a portal on document.body), by the start of its text. */
const dialogButton = (label: string) => [...document.querySelectorAll<HTMLButtonElement>('[role="dialog"] button')].find((b) => b.textContent!.startsWith(label))!;

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
    onRedact.mockClear();
    act(() => button('Redact all').click());
    expect(onRedact).not.toHaveBeenCalled(); // asks first
    act(() => dialogButton('Redact all 3 spans').click());
    expect(onRedact).toHaveBeenCalledTimes(1);
    expect(onRedact).toHaveBeenLastCalledWith();
  });

  it('confirms "Redact all" with counts by kind (never the text), says it cannot be undone, and can be cancelled', () => {
    const onRedact = vi.fn();
    act(() => root.render(<PiiFindings text={text} findings={findings} busy={false} onRedact={onRedact} />));
    act(() => button('Redact all').click());
    const dialog = document.querySelector<HTMLElement>('[role="dialog"]')!;
    expect(dialog).not.toBeNull();
    // Named by its title and described by its body, for screen readers.
    expect(document.getElementById(dialog.getAttribute('aria-labelledby')!)?.textContent).toMatch(/Redact all personal data/);
    const said = dialog.textContent!;
    expect(said).toContain('email × 2 → [EMAIL]');
    expect(said).toContain('phone × 1 → [PHONE]');
    expect(said).toMatch(/cannot be undone/i);
    for (const f of findings) expect(said).not.toContain(text.slice(f.start, f.end));
    // Cancel (and the safe choice has the focus, so Enter does not redact by accident).
    expect(document.activeElement?.textContent).toBe('Cancel');
    act(() => dialogButton('Cancel').click());
    expect(onRedact).not.toHaveBeenCalled();
  });

  it('closes the confirmation with Escape without redacting', async () => {
    const onRedact = vi.fn();
    act(() => root.render(<PiiFindings text={text} findings={findings} busy={false} onRedact={onRedact} />));
    act(() => button('Redact all').click());
    const dialog = document.querySelector<HTMLElement>('[role="dialog"]')!;
    act(() => {
      dialog.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    });
    // The dialog leaves after its exit transition.
    await vi.waitFor(
      async () => {
        await act(async () => undefined);
        expect(document.querySelector('[role="dialog"]')).toBeNull();
      },
      { timeout: 30_000 }, // a transition, not a speed check: room for a loaded machine
    );
    expect(onRedact).not.toHaveBeenCalled();
  });
});
