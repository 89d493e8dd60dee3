import { describe, expect, it } from 'vitest';
import { effectiveAggregation, initialAskForm, toAskRequest } from '../../../../../renderer/src/pages/ask/askForm';

describe('Ask form: public-data settings', () => {
  const base = { ...initialAskForm, dataset: 'notes', queries: 'q' };

  it('the default aggregation is sga for a generation dataset with public examples', () => {
    expect(effectiveAggregation(base, 'generation', true)).toBe('sga');
    expect(effectiveAggregation(base, 'generation', false)).toBe('embedding');
    expect(effectiveAggregation(base, 'classification', true)).toBe('vote');
    expect(effectiveAggregation({ aggregation: 'keyword' }, 'generation', true)).toBe('keyword');
  });

  it('sends SGA’s clusters, candidates and selection only for sga, validated', () => {
    const sga = toAskRequest({ ...base, sgaDepth: '3', sgaCandidates: '4', sgaSelection: 'nearest' }, 'sga');
    expect(sga.ok && sga.request).toMatchObject({ sgaDepth: 3, sgaCandidates: 4, sgaSelection: 'nearest' });
    expect(sga.ok && 'aggregation' in sga.request).toBe(false); // the default: the service resolves it the same way
    const vote = toAskRequest({ ...base, sgaDepth: 'x' }, 'vote');
    expect(vote.ok && Object.keys(vote.request).filter((k) => k.startsWith('sga'))).toEqual([]);
    expect(toAskRequest({ ...base, sgaDepth: '7', sgaCandidates: '0' }, 'sga')).toMatchObject({
      ok: false,
      errors: { sgaDepth: 'a whole number from 1 to 6', sgaCandidates: 'a whole number from 1 to 16' },
    });
  });

  it('keyword aggregation sends publicData: false only when unticked', () => {
    const on = toAskRequest({ ...base, aggregation: 'keyword' }, 'keyword');
    expect(on.ok && 'publicData' in on.request).toBe(false);
    const off = toAskRequest({ ...base, aggregation: 'keyword', publicData: false }, 'keyword');
    expect(off.ok && off.request).toMatchObject({ aggregation: 'keyword', publicData: false });
  });
});
