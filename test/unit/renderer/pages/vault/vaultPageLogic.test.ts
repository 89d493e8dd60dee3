/** Vault page logic without a DOM: PII highlighting segments, the dataset form, history wording, chart data, sample names. */
import { describe, expect, it } from 'vitest';
import { labelRows, NO_LABEL, splitRows } from '../../../../../renderer/src/pages/vault/chartData';
import { formFromDataset, parseLabels, validateDatasetForm, emptyDatasetForm } from '../../../../../renderer/src/pages/vault/datasetForm';
import { describeHistory } from '../../../../../renderer/src/pages/vault/historyText';
import { findingsByKind, piiSegments } from '../../../../../renderer/src/pages/vault/piiSegments';
import { loadedSample, sampleLoadedMessage, sampleRequest } from '../../../../../renderer/src/pages/vault/samples';
import type { DatasetDto } from '../../../../../electron/shared/api/vault';

const dataset: DatasetDto = {
  id: 1, name: 'Mail', description: 'd', task: 'classification', labels: ['spam', 'ham'], privacyUnit: 'subject', subjectCap: 3,
  createdAt: '', updatedAt: '', counts: { private: 1, public: 0, heldOut: 0, total: 1 },
};

describe('piiSegments', () => {
  it('cuts the text into plain and highlighted segments that join back to the text', () => {
    const text = 'Mail ann@x.org or call 555-0100.';
    const segments = piiSegments(text, [{ kind: 'phone', start: 23, end: 31 }, { kind: 'email', start: 5, end: 14 }]);
    expect(segments.map((s) => s.text).join('')).toBe(text);
    expect(segments.filter((s) => s.kinds.length).map((s) => [s.text, s.kinds])).toEqual([['ann@x.org', ['email']], ['555-0100', ['phone']]]);
  });

  it('merges overlapping findings and clamps offsets past the end', () => {
    const segments = piiSegments('John Smith', [{ kind: 'person-name', start: 0, end: 4 }, { kind: 'national-id', start: 2, end: 99 }]);
    expect(segments).toEqual([{ text: 'John Smith', start: 0, kinds: ['person-name', 'national-id'] }]);
    expect(piiSegments('', [])).toEqual([{ text: '', start: 0, kinds: [] }]);
  });

  it('groups findings by kind in order of appearance', () => {
    expect(findingsByKind([{ kind: 'email', start: 9, end: 12 }, { kind: 'phone', start: 0, end: 3 }, { kind: 'email', start: 20, end: 25 }])).toEqual([
      { kind: 'phone', count: 1 },
      { kind: 'email', count: 2 },
    ]);
  });
});

describe('dataset form', () => {
  it('parses the label set from commas and lines, dropping blanks and repeats', () => {
    expect(parseLabels('spam, ham\nham\n , other ')).toEqual(['spam', 'ham', 'other']);
  });

  it('validates into createDataset fields', () => {
    expect(validateDatasetForm({ ...emptyDatasetForm, name: ' Notes ', labels: 'a,b' })).toEqual({
      ok: true,
      fields: { name: 'Notes', description: '', task: 'classification', labels: ['a', 'b'], privacyUnit: 'record', subjectCap: 1 },
    });
    expect(validateDatasetForm({ ...emptyDatasetForm, name: 'Gen', task: 'generation', labels: 'ignored' })).toMatchObject({ ok: true, fields: { labels: [] } });
  });

  it('reports every bad field', () => {
    const result = validateDatasetForm({ ...emptyDatasetForm, name: ' ', subjectCap: '0', privacyUnit: 'subject' });
    expect(result.ok).toBe(false);
    expect(!result.ok && Object.keys(result.errors).sort()).toEqual(['labels', 'name', 'subjectCap']);
  });

  it('round-trips an existing dataset', () => {
    expect(validateDatasetForm(formFromDataset(dataset))).toMatchObject({ ok: true, fields: { labels: ['spam', 'ham'], privacyUnit: 'subject', subjectCap: 3 } });
  });

  it('loads a sample once, under its own name, as the CLI does: a second load finds the loaded one instead of creating "… 2"', () => {
    const loaded = { ...dataset, id: 9, name: 'Clinic notes sample' };
    expect(sampleRequest('clinic')).toEqual({ kind: 'clinic', name: 'Clinic notes sample' });
    expect(loadedSample('clinic', [dataset, loaded])).toBe(loaded);
    expect(loadedSample('spam', [dataset, loaded])).toBeNull();
    expect(sampleLoadedMessage(loaded)).toBe('The sample is already loaded as “Clinic notes sample”: it is not loaded twice.');
  });
});

describe('describeHistory', () => {
  it('words edits, bulk actions, redactions and PII rescans', () => {
    expect(describeHistory({ action: 'edit', detail: { from: { label: 'spam', split: 'private', tags: [] }, to: { label: 'ham', split: 'private', tags: ['x'] } } })).toBe('Edited: label spam → ham; tags [] → [x]');
    expect(describeHistory({ action: 'edit', detail: { from: { label: null }, to: { label: null } } })).toBe('Edited (no change)');
    expect(describeHistory({ action: 'redact', detail: { kinds: ['email', 'email', 'phone'], spans: 3 } })).toBe('Redacted 3 spans (email, phone)');
    expect(describeHistory({ action: 'redact', detail: { kinds: ['email'], spans: 1 } })).toBe('Redacted 1 span (email)');
    expect(describeHistory({ action: 'redact', detail: { kinds: ['email'], spans: 1, sameTextAs: 12 } })).toBe('Redacted 1 span (email); now the same text as record 12');
    expect(describeHistory({ action: 'pii-rescan', detail: { before: [], after: ['email', 'phone'], spans: 3 } })).toBe('PII rescanned: none → email, phone (3 findings)');
    expect(describeHistory({ action: 'pii-rescan', detail: { before: ['person-name'], after: [], spans: 0 } })).toBe('PII rescanned: person-name → none (0 findings)');
    expect(describeHistory({ action: 'move', detail: { split: 'public' } })).toBe('Moved to public');
    expect(describeHistory({ action: 'label', detail: { label: null } })).toBe('Label set to none');
    expect(describeHistory({ action: 'untag', detail: { tag: 'x' } })).toBe('Tag x removed');
    expect(describeHistory({ action: 'import', detail: { importId: 4 } })).toBe('import: {"importId":4}');
  });
});

describe('chart data', () => {
  it('charts unlabelled records under their own name and lists splits in order', () => {
    const stats = {
      splits: { private: 5, public: 1, heldOut: 2 },
      labels: [{ label: null, private: 1, public: 0, heldOut: 0 }, { label: 'spam', private: 4, public: 1, heldOut: 2 }],
      pii: [], tags: [], subjects: 0,
    };
    expect(labelRows(stats).map((r) => r.label)).toEqual([NO_LABEL, 'spam']);
    expect(splitRows(stats)).toEqual([{ split: 'Private', records: 5 }, { split: 'Public', records: 1 }, { split: 'Held-out', records: 2 }]);
  });
});
