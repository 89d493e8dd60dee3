// @vitest-environment jsdom
/** Every page's frame: one top-level heading, the page's actions beside it, aria-busy only while the page reads what it shows. */
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { PageFrame } from '../../../../renderer/src/components/PageFrame';
import { container, mountEachTest, root } from '../reactRoot';

mountEachTest();

const frame = () => container.firstElementChild as HTMLElement;

describe('PageFrame', () => {
  it('shows the title as the one h1, then the sections; not busy by default', () => {
    act(() => root.render(<PageFrame title="Privacy budget"><section>ledger</section></PageFrame>));
    expect([...container.querySelectorAll('h1')].map((h) => h.textContent)).toEqual(['Privacy budget']);
    expect(frame().lastElementChild?.textContent).toBe('ledger');
    expect(frame().hasAttribute('aria-busy')).toBe(false);
  });

  it('puts the actions beside the heading and marks a busy page', () => {
    act(() => root.render(<PageFrame title="Vault" maxWidth="none" busy actions={<button>New dataset</button>}><section>datasets</section></PageFrame>));
    const heading = container.querySelector('h1')!;
    expect(heading.parentElement?.querySelector('button')?.textContent).toBe('New dataset');
    expect(heading.parentElement).not.toBe(frame());
    expect(frame().getAttribute('aria-busy')).toBe('true');
  });
});
