// @vitest-environment jsdom
/** Search hits marked in the record table: the search's words, case-insensitive, as React nodes (no HTML injection). */
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { container, mountEachTest, root } from '../../reactRoot';
import type { RecordRow } from '../../../../../electron/shared/api/vault';
import { RecordTableRow } from '../../../../../renderer/src/pages/vault/RecordTableRow';
import { highlightSegments, searchPattern } from '../../../../../renderer/src/pages/vault/searchHighlight';

mountEachTest();

const hits = (text: string, search: string) => highlightSegments(text, searchPattern(search)).filter((s) => s.hit).map((s) => s.text);

describe('search highlight segments', () => {
  it('marks each search word whole and case-insensitively, a word ending in * as a prefix', () => {
    expect(hits('Free SPAM here, spammer; spam.', 'spam')).toEqual(['SPAM', 'spam']);
    expect(hits('Free SPAM here, spammer; spam.', 'spam*')).toEqual(['SPAM', 'spammer', 'spam']);
    expect(hits('Café prices: café, CAFÉ', 'café free')).toEqual(['Café', 'café', 'CAFÉ']);
    expect(highlightSegments('a (b) c', searchPattern('(b)')).map((s) => s.text).join('')).toBe('a (b) c');
    expect(searchPattern('  .* ')).toBeNull();
    expect(highlightSegments('plain', null)).toEqual([{ text: 'plain', hit: false }]);
  });
});

describe('RecordTableRow', () => {
  const row: RecordRow = {
    id: 4,
    text: 'Win <b>FREE</b> money: free offer <img src=x onerror=alert(1)>',
    label: 'spam',
    split: 'private',
    subject: 'free-user',
    tags: [],
    pii: [],
  } as unknown as RecordRow;
  const render = (highlight: RegExp | null) =>
    act(() =>
      root.render(
        <RecordTableRow id="r" index={0} top={0} row={row} active={false} selected={false} selectionLocked={false} editing={false} labels={null} highlight={highlight} onToggle={() => {}} onOpen={() => {}} onEditLabel={() => {}} onLabel={() => {}} />,
      ),
    );

  it('marks the search hits in the text cell with <mark>, leaving the text as text', () => {
    render(searchPattern('free'));
    const cells = container.querySelectorAll('[role="gridcell"]');
    expect([...cells[2]!.querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['FREE', 'free']);
    expect(cells[2]!.textContent).toBe(row.text);
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('b')).toBeNull();
    // "free-user": "free" is a whole word of the subject as the full-text search splits it.
    expect([...cells[5]!.querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['free']);
  });

  it('marks nothing without a search', () => {
    render(null);
    expect(container.querySelector('mark')).toBeNull();
    expect(container.querySelectorAll('[role="gridcell"]')[2]!.textContent).toBe(row.text);
  });
});
