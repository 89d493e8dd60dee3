/** The PII rescan's logic without a DOM: the progress line, the report read back from its job, the summary. */
import { describe, expect, it } from 'vitest';
import { piiRescanReportSchema, type PiiRescanReport } from '../../../../../electron/shared/api/vault';
import { jobResult } from '../../../../../renderer/src/components/jobView';
import { rescanProgressText, rescanSummary } from '../../../../../renderer/src/pages/vault/piiRescan';

const report: PiiRescanReport = { datasetId: 3, records: 2398, changed: 0, pii: [{ kind: 'email', records: 412 }], seconds: 1.234 };

describe('PII rescan', () => {
  it('says how far the scan has got, with the service message when there is one', () => {
    expect(rescanProgressText({ stage: 'scanning', done: 1000, total: 2398, message: '3 changed' })).toBe('Scanned 1,000 of 2,398 records · 3 changed');
    expect(rescanProgressText({ stage: 'scanning', done: 0, total: 1 })).toBe('Scanned 0 of 1 record');
  });

  it('reads the report from a succeeded job only', () => {
    expect(jobResult(piiRescanReportSchema, { status: 'succeeded', result: report })).toEqual(report);
    expect(jobResult(piiRescanReportSchema, { status: 'cancelled', result: undefined })).toBeNull();
    expect(jobResult(piiRescanReportSchema, { status: 'succeeded', result: { records: 1 } })).toBeNull();
  });

  it('sums up records scanned and changed', () => {
    expect(rescanSummary(report)).toBe('Scanned 2,398 records in 1.2 s: no record changed.');
    expect(rescanSummary({ ...report, records: 1, changed: 1, seconds: 0.04 })).toBe('Scanned 1 record in 0.0 s: 1 record changed (each has a history entry).');
    expect(rescanSummary({ ...report, records: 120_000, changed: 12 })).toBe('Scanned 120,000 (120K) records in 1.2 s: 12 records changed (each has a history entry).');
  });
});
