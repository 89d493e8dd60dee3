/** Budget page logic without a DOM: ledger wording, the budget form, the external-release event. */
import { describe, expect, it } from 'vitest';
import type { LedgerEntryDto } from '../../../../../electron/shared/api/ledger';
import type { DatasetDto } from '../../../../../electron/shared/api/vault';
import { defaultDeltaHint, needsUnitCount, parseBudgetForm, privacyUnits } from '../../../../../renderer/src/pages/budget/budgetForm';
import {
  entryDescription,
  entryEpsilonAfter,
  firstProblem,
  formatEpsilon,
  remainingInTerms,
  reservationsLine,
  spentPercent,
} from '../../../../../renderer/src/pages/budget/ledgerView';
import { eventFromForm, eventFromJson, initialReleaseForm } from '../../../../../renderer/src/pages/budget/releaseEvent';

const synth = { kind: 'synth', method: 'dp-few-shot-gaussian', shots: 4, teachers: 10, perTeacher: 2, topK: 100, maxTokens: 64, rounds: 2 } as const;
const answer = { kind: 'answer', ensemble: 10, shots: 4, queries: 100, aggregation: 'vote' } as const;

describe('ledger wording', () => {
  it('formats ε to four significant digits and clamps the spent share', () => {
    expect(formatEpsilon(1.23456)).toBe('1.235');
    expect(formatEpsilon(2)).toBe('2');
    expect(formatEpsilon(null)).toBe('—');
    expect(formatEpsilon(Infinity)).toBe('∞');
    expect(formatEpsilon('Infinity')).toBe('∞');
    expect(spentPercent('Infinity', 6)).toBe(100);
    expect(spentPercent(1.5, 6)).toBe(25);
    expect(spentPercent(9, 6)).toBe(100);
    expect(spentPercent(0, 0)).toBe(100);
  });

  it("says what is left in the analyst's terms", () => {
    expect(remainingInTerms(synth, 3, false)).toBe('3 more synthetic prompts of this kind');
    expect(remainingInTerms(synth, 1, false)).toBe('1 more synthetic prompt of this kind');
    expect(remainingInTerms(synth, 1000, true)).toBe('at least 1,000 more synthetic prompts of this kind');
    expect(remainingInTerms(synth, 0, false)).toMatch(/^no more synthetic prompts/);
    expect(remainingInTerms(answer, 4, false)).toBe('400 more private answers of this kind (4 × 100 queries)');
    expect(remainingInTerms(answer, 0, false)).toMatch(/^no more batches of 100 private answers/);
  });

  it('shows orphaned reservations as spent, and only when there are some', () => {
    expect(reservationsLine({ reserved: 1, committed: 3, orphaned: 0 })).toBe('1 in progress · 3 committed');
    expect(reservationsLine({ reserved: 0, committed: 2, orphaned: 1 })).toBe('0 in progress · 2 committed · 1 counted as spent (job did not finish)');
  });

  it('describes each entry type and the ε after it', () => {
    const base = { epsilonCap: null, delta: null, spentEpsilon: null, reservationId: null, event: null } as unknown as LedgerEntryDto;
    const budget = { ...base, type: 'budget', epsilonCap: 6, delta: 1e-6 } as LedgerEntryDto;
    const reserve = { ...base, type: 'reserve', spentEpsilon: 1.23456, event: { kind: 'gaussian', sigma: 2, sensitivity: 1, neighbouring: 'add-remove' } } as LedgerEntryDto;
    const commit = { ...base, type: 'commit', reservationId: 7 } as LedgerEntryDto;
    expect(entryDescription(budget)).toBe('budget: cap ε = 6, δ = 1.0e-6');
    expect(entryDescription(reserve)).toBe('Gaussian σ=2, Δ=1');
    expect(entryDescription(commit)).toBe('commits entry 7');
    expect([budget, reserve, commit].map(entryEpsilonAfter)).toEqual(['—', '1.235', '—']);
  });

  it('names the first problem of a failed verification', () => {
    // Named by id, as certificates and commits name entries, with the position in the chain.
    expect(firstProblem([{ entryId: 28, seq: 3, field: 'entry_hash', message: 'hash mismatch' }, { entryId: 29, seq: 4, field: 'prev_hash', message: 'x' }])).toBe('entry 28 (#3) (entry_hash): hash mismatch');
    expect(firstProblem([{ entryId: null, seq: null, field: 'totals', message: 'differ' }])).toBe('ledger (totals): differ');
  });
});

describe('budget form', () => {
  const dataset = { privacyUnit: 'record', counts: { private: 400 } } as DatasetDto;

  it("takes N from the budget, else from the services' count, never from the dataset's own numbers", () => {
    const subjects = { ...dataset, id: 7, privacyUnit: 'subject' } as DatasetDto;
    const counted = { datasetId: 7, dataset: 's', unit: 'subject', n: 360 } as const;
    expect(privacyUnits({ privacyUnits: 250 } as never, dataset)).toEqual({ n: 250, unit: 'record' });
    // Before a budget exists: the services' N (a record without a subject is its own subject), not the 400 records.
    expect(privacyUnits(null, subjects, counted)).toEqual({ n: 360, unit: 'subject' });
    expect(privacyUnits(null, subjects)).toBeUndefined(); // not counted yet
    expect(privacyUnits(null, { ...subjects, id: 8 } as DatasetDto, counted)).toBeUndefined(); // another dataset's count
    expect(privacyUnits(null, subjects, { ...counted, n: null })).toBeNull(); // the private split is empty
    expect(privacyUnits({ privacyUnits: null } as never, subjects, counted)).toBeNull();
    expect(defaultDeltaHint({ n: 400, unit: 'record' })).toBe('empty: δ = 1e-5 = min(1/(10·N), 1e-5) (N = 400 records in the private split; common practice: δ ≪ 1/N)');
    expect(defaultDeltaHint({ n: 360, unit: 'subject' })).toMatch(/^empty: δ = 1e-5 = .*N = 360 subjects in the private split/);
    expect(defaultDeltaHint({ n: 40_000, unit: 'record' })).toMatch(/^empty: δ = 2.5e-6 = /);
    expect(defaultDeltaHint(null)).toMatch(/required/);
    expect(defaultDeltaHint(undefined)).toBe('empty: δ = min(1/(10·N), 1e-5) for the N privacy units of the private split (N not counted yet)');
  });

  it('asks the services for N only for a dataset without a budget', () => {
    const subjects = { ...dataset, privacyUnit: 'subject' } as DatasetDto;
    expect(needsUnitCount(subjects, null)).toBe(true);
    expect(needsUnitCount(dataset, null)).toBe(true);
    // A budget carries N; a summary not read yet may still hold one.
    expect(needsUnitCount(subjects, { privacyUnits: 250 } as never)).toBe(false);
    expect(needsUnitCount(subjects, undefined)).toBe(false);
    expect(needsUnitCount(undefined, null)).toBe(false);
  });

  it('validates ε and δ; an empty δ means the default', () => {
    expect(parseBudgetForm({ epsilon: '6', delta: '', purpose: ' audit ' })).toEqual({ ok: true, change: { epsilon: 6, delta: undefined, purpose: 'audit' } });
    expect(parseBudgetForm({ epsilon: '2', delta: '1e-6', purpose: '' })).toEqual({ ok: true, change: { epsilon: 2, delta: 1e-6, purpose: undefined } });
    const bad = parseBudgetForm({ epsilon: '0', delta: '1', purpose: '' });
    expect(bad.ok).toBe(false);
    expect(!bad.ok && Object.keys(bad.errors).sort()).toEqual(['delta', 'epsilon']);
  });

  it('with charges, refuses a δ above the one in force and says why; lowering or the default is allowed', () => {
    const raised = parseBudgetForm({ epsilon: '6', delta: '1e-5', purpose: '' }, 1e-6);
    expect(raised.ok).toBe(false);
    expect(!raised.ok && raised.errors.delta).toMatch(/cannot be raised above 1\.00e-6: this dataset has charges/);
    expect(parseBudgetForm({ epsilon: '6', delta: '1e-7', purpose: '' }, 1e-6).ok).toBe(true);
    expect(parseBudgetForm({ epsilon: '6', delta: '', purpose: '' }, 1e-6).ok).toBe(true);
    expect(defaultDeltaHint({ n: 400, unit: 'record' }, 1e-6)).toMatch(/has charges: δ may only go down from 1\.00e-6/);
  });
});

describe('external release event', () => {
  it('builds Gaussian, Laplace and pure events, subsampled and repeated', () => {
    expect(eventFromForm({ ...initialReleaseForm, noise: '2' })).toEqual({ ok: true, event: { kind: 'gaussian', sigma: 2, sensitivity: 1, neighbouring: 'add-remove' } });
    const laplace = eventFromForm({ mechanism: 'laplace', noise: '0.5', sensitivity: '2', q: '0.01', count: '3' });
    expect(laplace).toEqual({
      ok: true,
      event: {
        kind: 'composed',
        count: 3,
        neighbouring: 'add-remove',
        event: { kind: 'poisson-sampled', q: 0.01, neighbouring: 'add-remove', event: { kind: 'laplace', scale: 0.5, sensitivity: 2, neighbouring: 'add-remove' } },
      },
    });
    expect(eventFromForm({ mechanism: 'pure', noise: '0.3', sensitivity: '', q: '', count: '1' })).toEqual({ ok: true, event: { kind: 'pure', epsilon: 0.3, neighbouring: 'add-remove' } });
  });

  it('names every bad field of the form', () => {
    const result = eventFromForm({ mechanism: 'gaussian', noise: '-1', sensitivity: 'x', q: '2', count: '1.5' });
    expect(!result.ok && Object.keys(result.errors).sort()).toEqual(['count', 'noise', 'q', 'sensitivity']);
  });

  it('checks pasted JSON for syntax, then against the event schema', () => {
    expect(eventFromJson('{"kind":"pure","epsilon":0.5}')).toEqual({ ok: true, event: { kind: 'pure', epsilon: 0.5, neighbouring: 'add-remove' } });
    const syntax = eventFromJson('{kind: pure}');
    expect(!syntax.ok && syntax.errors.json).toMatch(/^not JSON/);
    const schema = eventFromJson('{"kind":"gaussian","sigma":-1,"sensitivity":1}');
    expect(!schema.ok && schema.errors.json).toMatch(/^not a privacy event: sigma/);
  });
});
