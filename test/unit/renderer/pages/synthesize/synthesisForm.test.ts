/** The Synthesize form's sampling-mode setting reaches the request (and defaults to per token). */
import { describe, expect, it } from 'vitest';
import { initialForm, toRequest } from '../../../../../renderer/src/pages/synthesize/synthesisForm';
import { synthesisRequestSchema } from '../../../../../electron/shared/api/synthesis';

describe('Synthesize form: sampling mode', () => {
  it('sends per-demonstration when chosen and nothing (per token) by default', () => {
    const base = { ...initialForm, dataset: 'mail' };
    const perToken = toRequest(base);
    const perDemo = toRequest({ ...base, sampling: 'per-demonstration' });
    expect(perToken.ok && perToken.request.sampling).toBe(undefined);
    expect(perDemo.ok && synthesisRequestSchema.parse(perDemo.request).sampling).toBe('per-demonstration');
  });
});
