// @vitest-environment jsdom
/** The import report in jsdom: texts that other datasets hold too are named with a warning; none, no warning. */
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import type { ImportReport } from '../../../electron/shared/api/vaultFiles';
import { ImportReportView } from '../../../renderer/src/pages/vault/ImportReportView';
import { container, mountEachTest, root } from './reactRoot';


const report: ImportReport = {
  importId: 1, datasetId: 2, format: 'csv', delimiter: ',', bytes: 120, rowsRead: 4, accepted: 4,
  duplicates: { count: 0, lines: [] }, badRows: { count: 0, rows: [] }, encoding: { ok: true, encoding: 'utf-8', message: 'UTF-8' }, seconds: 0.1, alsoIn: [], withoutSubject: 0, randomSplit: null,
};

mountEachTest();

describe('ImportReportView', () => {
  it('warns, naming each dataset and its count, when other datasets hold imported texts', () => {
    act(() => root.render(<ImportReportView report={{ ...report, alsoIn: [{ dataset: 'mail', records: 3 }, { dataset: 'other', records: 1 }] }} />));
    expect(container.textContent).toContain('Some imported texts are also in “mail” (3 records), “other” (1 record). Each dataset has its own privacy budget');
  });

  it('warns when rows of a subject-level dataset came without a subject id', () => {
    act(() => root.render(<ImportReportView report={{ ...report, withoutSubject: 2 }} />));
    expect(container.textContent).toContain('2 rows have no subject id: in this subject-level dataset each counts as its own data subject');
  });

  it('shows no such warning when no other dataset holds them', () => {
    act(() => root.render(<ImportReportView report={report} />));
    expect(container.textContent).toContain('Imported 4 of 4 rows');
    expect(container.textContent).not.toContain('also in');
  });
});
