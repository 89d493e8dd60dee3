import { describe, expect, it } from 'vitest';
import { initialAskForm, toAskRequest } from '../../../../../renderer/src/pages/ask/askForm';

describe('Ask form validation', () => {
  const base = { ...initialAskForm, dataset: 'mail' };

  it('turns typed questions (one per line, blanks dropped) into a request; the aggregation defaults by task', () => {
    const result = toAskRequest({ ...base, queries: ' first?\n\n second? \n', epsilon: '2' });
    expect(result).toEqual({ ok: true, request: { dataset: 'mail', epsilon: 2, perQuery: false, ensemble: 10, shots: 2, queries: ['first?', 'second?'] } });
    const ptr = toAskRequest({ ...base, queries: 'q', aggregation: 'ptr', perQuery: true });
    expect(ptr.ok && ptr.request).toMatchObject({ aggregation: 'ptr', perQuery: true });
  });

  it('evaluation mode takes no questions; bad numbers and a missing dataset are named', () => {
    expect(toAskRequest({ ...base, evaluate: '5' })).toMatchObject({ ok: true, request: { evaluate: 5, queries: [] } });
    expect(toAskRequest({ ...base, evaluate: '5', queries: 'q' })).toMatchObject({ ok: false, errors: { evaluate: expect.stringMatching(/clear/) } });
    expect(toAskRequest({ ...initialAskForm, queries: 'q', epsilon: '0', ensemble: '2.5' })).toMatchObject({
      ok: false,
      errors: { dataset: 'choose a dataset', epsilon: expect.any(String), ensemble: expect.stringMatching(/whole number/) },
    });
    expect(toAskRequest(base)).toMatchObject({ ok: false, errors: { queries: expect.stringMatching(/at least one question/) } });
  });
});
