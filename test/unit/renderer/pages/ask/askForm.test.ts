import { describe, expect, it } from 'vitest';
import { effectiveAggregation, initialAskForm, toAskRequest } from '../../../../../renderer/src/pages/ask/askForm';

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

  it('sends candidates and keywords only for the aggregations that use them, validated', () => {
    const vote = toAskRequest({ ...base, queries: 'q', candidates: 'x', keywords: '0' }, 'vote');
    expect(vote.ok && vote.request).not.toHaveProperty('candidates'); // vote uses neither: not checked, not sent
    expect(vote.ok && vote.request).not.toHaveProperty('keywords');
    const embedding = toAskRequest({ ...base, queries: 'q', candidates: '30' }, 'embedding');
    expect(embedding.ok && embedding.request).toMatchObject({ candidates: 30 });
    expect(embedding.ok && embedding.request).not.toHaveProperty('keywords');
    const keyword = toAskRequest({ ...base, queries: 'q', aggregation: 'keyword', candidates: '20', keywords: '7' }, 'keyword');
    expect(keyword.ok && keyword.request).toMatchObject({ aggregation: 'keyword', candidates: 20, keywords: 7 });
    expect(toAskRequest({ ...base, queries: 'q', aggregation: 'ptr', candidates: '0', keywords: '51' }, 'ptr')).toMatchObject({
      ok: false,
      errors: { candidates: expect.stringMatching(/at most 100/), keywords: expect.stringMatching(/at most 50/) },
    });
    expect(toAskRequest({ ...base, queries: 'q', candidates: '2.5' }, 'embedding')).toMatchObject({ ok: false, errors: { candidates: expect.stringMatching(/whole number/) } });
  });

  it('defaults: 20 candidates and 5 keywords, as the CLI', () => {
    expect(initialAskForm).toMatchObject({ candidates: '20', keywords: '5' });
    expect(effectiveAggregation({ aggregation: '' }, 'generation', false)).toBe('embedding');
    expect(effectiveAggregation({ aggregation: '' }, 'classification', false)).toBe('vote');
  });
});
