// @vitest-environment jsdom
/** The Ask form shows the candidates and keywords fields only where the aggregation uses them, with their errors. */
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { describe, expect, it } from 'vitest';
import { AskForm } from '../../../../../renderer/src/pages/ask/AskForm';
import { effectiveAggregation, initialAskForm, type AskFormState } from '../../../../../renderer/src/pages/ask/askForm';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const datasets = [{ name: 'mail', task: 'classification' as const }, { name: 'notes', task: 'generation' as const }];

function labels(form: AskFormState, errors: Partial<Record<keyof AskFormState, string>> = {}) {
  const container = document.createElement('div');
  const root = createRoot(container);
  const effective = effectiveAggregation(form, datasets.find((d) => d.name === form.dataset)?.task, false);
  act(() => root.render(<AskForm form={form} job={{ errors, busy: false, priced: null, price: () => {}, begin: async () => {} }} datasets={datasets} onChange={() => {}} effective={effective} />));
  const found = [...container.querySelectorAll('label')].map((l) => l.textContent ?? '');
  const text = container.textContent ?? '';
  act(() => root.unmount());
  return { found, text };
}

describe('AskForm fields', () => {
  it('vote (a classification dataset): no candidates, no keywords', () => {
    const { found } = labels({ ...initialAskForm, dataset: 'mail' });
    expect(found.some((l) => l.startsWith('Candidates'))).toBe(false);
    expect(found.some((l) => l.startsWith('Keywords'))).toBe(false);
  });

  it('embedding (the generation default): candidates; keyword: candidates and keywords; ptr: the largest k', () => {
    expect(labels({ ...initialAskForm, dataset: 'notes' }).found.filter((l) => /^(Candidates|Keywords|Largest k)/.test(l))).toEqual(['Candidates']);
    expect(labels({ ...initialAskForm, dataset: 'notes', aggregation: 'keyword' }).found.filter((l) => /^(Candidates|Keywords|Largest k)/.test(l))).toEqual(['Candidates', 'Keywords']);
    expect(labels({ ...initialAskForm, dataset: 'notes', aggregation: 'ptr' }).found.filter((l) => /^(Candidates|Keywords|Largest k)/.test(l))).toEqual(['Candidates', 'Largest k (keywords)']);
  });

  it('shows a validation error in place of the field’s help', () => {
    const { text } = labels({ ...initialAskForm, dataset: 'notes', aggregation: 'keyword', keywords: '0' }, { keywords: 'a whole number above 0, at most 50' });
    expect(text).toContain('a whole number above 0, at most 50');
  });
});
