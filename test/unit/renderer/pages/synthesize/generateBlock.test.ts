/** Generate is refused up front, with the reason, when the shown price already exceeds the budget. */
import { describe, expect, it } from 'vitest';
import { generateBlock } from '../../../../../renderer/src/pages/synthesize/generateBlock';

describe('generateBlock', () => {
  it('blocks a job whose ε after it would exceed the cap, naming both numbers', () => {
    expect(generateBlock({ budget: { cap: 8, spent: 1.999, afterJob: 8.422 } })).toMatch(/^Over budget: after this job ε would be 8.422, above the cap 8.000 \(1.999 already spent\)/);
  });

  it('lets a job within the cap, at the cap, or without a budget through', () => {
    expect(generateBlock({ budget: { cap: 8, spent: 1.999, afterJob: 7.422 } })).toBeNull();
    expect(generateBlock({ budget: { cap: 8, spent: 0, afterJob: 8 } })).toBeNull();
    expect(generateBlock({ budget: null })).toBeNull();
    expect(generateBlock(null)).toBeNull();
  });
});
