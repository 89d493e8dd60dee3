// @vitest-environment jsdom
/** The demonstrations table shows a generation task's synthetic outputs beside their inputs, and no output column otherwise. */
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DemonstrationsTable } from '../../../../../renderer/src/pages/synthesize/DemonstrationsTable';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

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

const rows = () => [...container.querySelectorAll('tr')].map((tr) => [...tr.querySelectorAll('th, td')].map((c) => c.textContent));

describe('DemonstrationsTable', () => {
  it('shows the synthetic output of each generation demonstration', () => {
    act(() => root.render(<DemonstrationsTable demonstrations={[{ text: 'Long note about a fall', output: 'Fall, no fracture' }, { text: 'Note two', output: '' }]} />));
    expect(rows()).toEqual([
      ['Label', 'Synthetic demonstration', 'Synthetic output'],
      ['—', 'Long note about a fall', 'Fall, no fracture'],
      ['—', 'Note two', '(empty)'],
    ]);
  });

  it('has no output column for classification', () => {
    act(() => root.render(<DemonstrationsTable demonstrations={[{ text: 'Win a prize', label: 'spam' }]} />));
    expect(rows()).toEqual([
      ['Label', 'Synthetic demonstration'],
      ['spam', 'Win a prize'],
    ]);
  });
});
