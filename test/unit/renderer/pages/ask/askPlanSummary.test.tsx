// @vitest-environment jsdom
/**
 * The Ask page's planned cost is the shared "planned cost" table (components/PlannedCost.tsx):
 * its budget row is the shared one — spent, after this batch, the composition note — with how
 * many more such batches fit; no budget reads as on the other pages; the warnings follow.
 */
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import type { AnswerPlanDto } from '../../../../../electron/shared/api/answering';
import { AskPlanSummary } from '../../../../../renderer/src/pages/ask/AskPlanSummary';
import { container, mountEachTest, root } from '../../reactRoot';

mountEachTest();

const plan = (budget: AnswerPlanDto['budget']): AnswerPlanDto => ({
  request: { dataset: 'notes', epsilon: 2, queries: ['q'] } as unknown as AnswerPlanDto['request'],
  aggregation: 'vote', queries: 10, delta: 1e-5, noise: { kind: 'discrete-gaussian', sigma: 3.2 }, ptrDelta: null, sizeEpsilon: 0.1, q: 0.05,
  event: { kind: 'pure', epsilon: 2, neighbouring: 'add-remove' }, totalEvent: { kind: 'pure', epsilon: 2, neighbouring: 'add-remove' },
  epsilon: { lower: 1.98, estimate: 1.99, upper: 2 }, accountant: 'pld', budget, warnings: ['a warning'],
});

const budgetCell = () => [...container.querySelectorAll('table[aria-label="planned cost"] tr')].find((tr) => tr.textContent?.startsWith('Budget'));

describe('AskPlanSummary', () => {
  it('shows the shared budget row: after this batch, the batches left, and the composition note', () => {
    act(() => root.render(<AskPlanSummary plan={plan({ cap: 6, spent: 0, afterJob: 2, batchesLeft: 2, atLimit: false })} />));
    expect(budgetCell()?.textContent).toContain('0.000 spent of 6.000; after this batch 2.000; 2 more such batches (20 queries) fit');
    expect(budgetCell()?.querySelector('[data-testid="composition-note"]')).not.toBeNull();
    expect(container.textContent).toContain('a warning');
  });

  it('says when the dataset has no budget', () => {
    act(() => root.render(<AskPlanSummary plan={plan(null)} />));
    expect(budgetCell()?.textContent).toContain('no budget set for this dataset');
  });
});
