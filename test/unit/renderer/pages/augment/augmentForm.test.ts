/**
 * The Augment form's validation by the shared request schema: the form starts at the service's
 * defaults; each broken field gets the rule the schema states, in words; δ is optional.
 */
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { augmentRequestSchema } from '../../../../../electron/shared/api/augmentation';
import { numberRule } from '../../../../../renderer/src/components/numberRule';
import { initialAugmentForm, toAugmentRequest } from '../../../../../renderer/src/pages/augment/augmentForm';

const form = { ...initialAugmentForm, dataset: 'notes' };
const errorsOf = (change: Partial<typeof form>) => {
  const result = toAugmentRequest({ ...form, ...change });
  return result.ok ? {} : result.errors;
};

describe('augment form', () => {
  it('starts at the schema’s defaults and sends them, without δ when δ is empty', () => {
    expect(toAugmentRequest(form)).toEqual({ ok: true, request: augmentRequestSchema.parse({ dataset: 'notes' }) });
    expect(toAugmentRequest(form)).toEqual({ ok: true, request: { dataset: 'notes', epsilon: 0.5, examples: 10, depth: 2, maxTokens: 200 } });
    expect(toAugmentRequest({ ...form, epsilon: ' 1.5 ', delta: '1e-6', examples: '3' })).toEqual({ ok: true, request: { dataset: 'notes', epsilon: 1.5, delta: 1e-6, examples: 3, depth: 2, maxTokens: 200 } });
  });

  it('names the rule each broken field breaks, as the schema states it', () => {
    expect(errorsOf({ dataset: '' })).toEqual({ dataset: 'choose a dataset' });
    for (const epsilon of ['0', '-1', '10.5', '', 'abc']) expect(errorsOf({ epsilon })).toEqual({ epsilon: 'a number above 0, at most 10' });
    expect(errorsOf({ examples: '2.5' })).toEqual({ examples: 'a whole number from 1 to 500' });
    expect(errorsOf({ examples: '501' })).toEqual({ examples: 'a whole number from 1 to 500' });
    expect(errorsOf({ depth: '' })).toEqual({ depth: 'a whole number from 1 to 6' });
    expect(errorsOf({ maxTokens: '7' })).toEqual({ maxTokens: 'a whole number from 8 to 2000' });
    expect(errorsOf({ delta: '1' })).toEqual({ delta: 'a number above 0, below 1 (empty: the budget’s δ)' });
    expect(errorsOf({ dataset: '', epsilon: '0', depth: '9' })).toEqual({ dataset: 'choose a dataset', epsilon: 'a number above 0, at most 10', depth: 'a whole number from 1 to 6' });
  });

  it('numberRule reads inclusive and exclusive bounds from any number schema', () => {
    expect(numberRule(z.number().int().min(0))).toBe('a whole number from 0');
    expect(numberRule(z.number().lt(3).optional())).toBe('a number below 3');
    expect(numberRule(z.number())).toBe('a number');
    expect(numberRule(z.number().positive().max(2).default(1))).toBe('a number above 0, at most 2');
  });
});
