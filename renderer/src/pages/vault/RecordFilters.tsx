/**
 * The record table's search box and filters (label, split, PII kind, tag). "/" anywhere on
 * the page focuses the search box; Escape in it clears the search.
 */
import { Button, Stack, TextField } from '@mui/material';
import { useEffect, useRef } from 'react';
import type { Split } from '../../../../electron/shared/api/vault';
import { MultiSelect } from './MultiSelect';
import { labelOptions, piiOptions, splitOptions } from './options';
import { emptyFilter, isFiltered, type FilterState } from './recordQuery';

function isTyping(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));
}

export function RecordFilters({ filter, labels, tags, onChange }: { filter: FilterState; labels: readonly string[]; tags: readonly string[]; onChange: (filter: FilterState) => void }) {
  const search = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === '/' && !isTyping(e.target) && !e.ctrlKey && !e.metaKey && !e.altKey) {
        e.preventDefault();
        search.current?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  const set = <K extends keyof FilterState>(key: K, value: FilterState[K]) => onChange({ ...filter, [key]: value });

  return (
    <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
      <TextField
        size="small"
        type="search"
        label="Search text"
        placeholder="Press / to search; prefix* works"
        value={filter.search}
        inputRef={search}
        onChange={(e) => set('search', e.target.value)}
        onKeyDown={(e) => e.key === 'Escape' && filter.search !== '' && (e.stopPropagation(), set('search', ''))}
        sx={{ width: 260 }}
      />
      <MultiSelect label="Label" options={labelOptions(labels)} value={filter.labels} onChange={(v) => set('labels', v)} />
      <MultiSelect<Split> label="Split" options={splitOptions} value={filter.splits} onChange={(v) => set('splits', v)} />
      <MultiSelect<FilterState['pii'][number]> label="PII" options={piiOptions} value={filter.pii} onChange={(v) => set('pii', v)} />
      <MultiSelect label="Tag" options={tags.map((t) => ({ value: t, label: t }))} value={filter.tags} onChange={(v) => set('tags', v)} />
      <Button onClick={() => onChange(emptyFilter)} disabled={!isFiltered(filter)}>
        Clear filters
      </Button>
    </Stack>
  );
}
