import { describe, expect, it } from 'vitest';
import { initialAuditForm, toAuditRequest } from '../../../../../renderer/src/pages/audit/AuditForm';

const form = { ...initialAuditForm, dataset: 'mail', baseline: false };

describe('toAuditRequest: the private answering target', () => {
  it('sends the aggregation, ε per query, teachers and shots', () => {
    const checked = toAuditRequest({ ...form, answering: { on: true, aggregation: 'vote', epsilon: '1000', ensemble: '4', shots: '3' } });
    expect(checked).toEqual({ request: expect.objectContaining({ targets: [{ kind: 'answering', aggregation: 'vote', epsilon: 1000, ensemble: 4, shots: 3 }] }) });
  });

  it('leaves the aggregation to the dataset’s default when none is chosen', () => {
    const checked = toAuditRequest({ ...form, answering: { ...initialAuditForm.answering, on: true } });
    expect(checked).toEqual({ request: expect.objectContaining({ targets: [{ kind: 'answering', epsilon: 1, ensemble: 10, shots: 2 }] }) });
  });

  it('refuses a bad ε and is off by default', () => {
    expect(toAuditRequest({ ...form, answering: { ...initialAuditForm.answering, on: true, epsilon: '0' } })).toEqual({ error: 'Answering ε: a number above 0 (at most 100000).' });
    expect(toAuditRequest({ ...form, answering: { ...initialAuditForm.answering, on: true, epsilon: 'x' } })).toHaveProperty('error');
    expect(toAuditRequest(form)).toEqual({ error: 'Choose at least one target.' });
  });
});
