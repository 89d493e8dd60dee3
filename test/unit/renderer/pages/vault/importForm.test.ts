/** The import dialog's logic without a DOM: the column mapping, the import request, the import report read back from its job. */
import { describe, expect, it } from 'vitest';
import { importReportSchema, importRequestSchema, type ImportPreview, type ImportReport } from '../../../../../electron/shared/api/vaultFiles';
import { jobResult } from '../../../../../renderer/src/components/jobView';
import { importOptionsError, importRequest, initialMapping, initialRandomSplit, lineList, randomSplitFromForm } from '../../../../../renderer/src/pages/vault/importForm';
import { suggestMapping } from '../../../../../electron/services/vault/import/detect';

const preview: ImportPreview = {
  path: '/data/t.csv',
  size: 100,
  format: 'csv',
  delimiter: ';',
  columns: ['body', 'category', 'who'],
  rows: [],
  badRows: [],
  encoding: { ok: true, encoding: 'utf-8', message: '' },
  suggestedMapping: { text: 'body', label: 'category', subject: 'missing' },
};

describe('import mapping and request', () => {
  it('takes the suggested columns that exist, else "text", else the first column', () => {
    expect(initialMapping(preview)).toEqual({ text: 'body', label: 'category', subject: '', split: '', output: '' });
    expect(initialMapping({ ...preview, suggestedMapping: {} }).text).toBe('body');
    expect(initialMapping({ ...preview, columns: ['id', 'text'], suggestedMapping: {} }).text).toBe('text');
  });

  it('suggests as label the column whose values are all labels of the dataset, whatever its name', () => {
    const clinic: ImportPreview = {
      ...preview,
      columns: ['note', 'ward', 'department'],
      suggestedMapping: { text: 'note' },
      rows: [
        { line: 2, values: { note: 'Knee pain', ward: '3B', department: 'orthopaedics' } },
        { line: 3, values: { note: 'Cough', ward: '2A', department: 'pulmonology' } },
        { line: 4, values: { note: 'Unlabelled', ward: '2A', department: '' } },
      ],
    };
    expect(initialMapping(clinic, ['orthopaedics', 'pulmonology']).label).toBe('department');
    expect(initialMapping(clinic, ['cardiology']).label).toBe('');
    expect(initialMapping(clinic).label).toBe('');
  });

  it('suggests the subject column: an id-named column, or one named like a subject whose values are ids (not an email subject line)', () => {
    const tickets: ImportPreview = {
      ...preview,
      columns: ['id', 'text', 'label', 'subject'],
      suggestedMapping: { text: 'text', label: 'label' },
      rows: [
        { line: 2, values: { id: '7', text: 'Crash on start', label: 'bug', subject: 'C005' } },
        { line: 3, values: { id: '8', text: 'Dark mode?', label: 'feature', subject: 'C006' } },
      ],
    };
    expect(initialMapping(tickets).subject).toBe('subject');
    const mail = { ...tickets, rows: tickets.rows.map((r) => ({ ...r, values: { ...r.values, subject: 'Re: your invoice' } })) };
    expect(initialMapping(mail).subject).toBe('');
    expect(initialMapping({ ...tickets, columns: ['text', 'Customer ID'], suggestedMapping: suggestMapping(['text', 'Customer ID']) }).subject).toBe('Customer ID');
  });

  it('sends only mapped columns, the detected format and delimiter, and the options', () => {
    const mapping = { ...initialMapping(preview), subject: 'who' };
    expect(importRequest(7, preview, mapping, { split: 'public', onBadRow: 'abort' })).toEqual({
      dataset: 7,
      path: '/data/t.csv',
      format: 'csv',
      delimiter: ';',
      mapping: { text: 'body', label: 'category', subject: 'who' },
      split: 'public',
      onBadRow: 'abort',
    });
  });

  it('maps nothing for plain text', () => {
    const txt = { ...preview, format: 'txt' as const, delimiter: null, columns: [] };
    expect(importRequest(1, txt, initialMapping(txt), { split: 'private', onBadRow: 'skip' })).toMatchObject({ format: 'txt', mapping: { text: 'text' } });
    expect(importRequest(1, txt, initialMapping(txt), { split: 'private', onBadRow: 'skip' })).not.toHaveProperty('delimiter');
  });
});

describe('import report', () => {
  it('reads the report from a succeeded job, or nothing from anything else', () => {
    const report: ImportReport = {
      importId: 1, datasetId: 2, format: 'csv', delimiter: ',', bytes: 10, rowsRead: 3, accepted: 2,
      duplicates: { count: 1, lines: [4] }, badRows: { count: 0, rows: [] }, encoding: preview.encoding, seconds: 0.1, alsoIn: [{ dataset: 'mail copy', records: 2 }], withoutSubject: 0, randomSplit: null,
    };
    expect(jobResult(importReportSchema, { status: 'succeeded', result: report })).toEqual(report);
    // A report stored before the cross-dataset check reads with none.
    const { alsoIn: _, ...older } = report;
    expect(jobResult(importReportSchema, { status: 'succeeded', result: older })).toEqual({ ...report, alsoIn: [] });
    expect(jobResult(importReportSchema, { status: 'failed', result: report })).toBeNull();
    expect(jobResult(importReportSchema, { status: 'succeeded', result: { accepted: 2 } })).toBeNull();
    expect(jobResult(importReportSchema, { status: 'succeeded', result: undefined })).toBeNull();
  });

  it('lists the first line numbers and counts the rest', () => {
    expect(lineList([3, 7], 2)).toBe('3, 7');
    expect(lineList([1, 2, 3, 4], 1500, 3)).toBe('1, 2, 3 and 1,497 more');
  });
});

describe('random split in the import request', () => {
  const mapping = initialMapping(preview);
  const on = { ...initialRandomSplit, on: true, private: '70', public: '20', heldOut: '10' };

  it('passes the proportions (as fractions) and the seed through to the request', () => {
    const request = importRequest(7, preview, mapping, { split: 'private', onBadRow: 'skip', random: { ...on, seed: ' s1 ' } });
    expect(importRequestSchema.parse(request).randomSplit).toEqual({ private: expect.closeTo(0.7, 9), public: 0.2, heldOut: 0.1, seed: 's1' });
  });

  it('sends no seed when none is given (the CSPRNG draws) and no randomSplit when the option is off', () => {
    expect(importRequest(7, preview, mapping, { split: 'private', onBadRow: 'skip', random: on }).randomSplit).not.toHaveProperty('seed');
    expect(importRequest(7, preview, mapping, { split: 'public', onBadRow: 'skip', random: { ...on, on: false } })).not.toHaveProperty('randomSplit');
  });

  it('validates: shares are percentages that add up to 100 %', () => {
    expect(randomSplitFromForm({ ...on, heldOut: '20' })).toEqual({ error: 'The shares add up to 110 %, not 100 %.' });
    expect(randomSplitFromForm({ ...on, public: '' })).toHaveProperty('error');
    expect(randomSplitFromForm({ ...on, private: '-10', public: '100', heldOut: '10' })).toHaveProperty('error');
    expect(importOptionsError({ split: 'private', onBadRow: 'skip', random: { ...on, private: '50' } })).toMatch(/80 %/);
    expect(importOptionsError({ split: 'private', onBadRow: 'skip', random: { ...on, on: false, private: '50' } })).toBeNull();
    // Edge shares that floating point would push a hair below zero still validate.
    const edge = randomSplitFromForm({ ...on, private: '0', public: '90', heldOut: '10' });
    expect('value' in edge && importRequestSchema.shape.randomSplit.parse(edge.value)).toMatchObject({ private: 0, public: 0.9, heldOut: 0.1 });
  });
});
