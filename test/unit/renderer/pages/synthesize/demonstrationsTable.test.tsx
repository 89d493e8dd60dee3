// @vitest-environment jsdom
/** The demonstrations table shows a generation task's synthetic outputs beside their inputs, and no output column otherwise. */
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { container, mountEachTest, root } from '../../reactRoot';
import { DemonstrationsTable } from '../../../../../renderer/src/pages/synthesize/DemonstrationsTable';

mountEachTest();

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
