/** The share of a job done, from its progress events, for the progress bars (the typed job result: see importForm.test and piiRescan.test). */
import { describe, expect, it } from 'vitest';
import { jobPercent } from '../../../renderer/src/components/jobView';

describe('jobPercent', () => {
  it('is null before the first event or without a total, else the share done capped at 100', () => {
    expect(jobPercent(undefined)).toBeNull();
    expect(jobPercent({ stage: 'reading', done: 0, total: 0 })).toBeNull();
    expect(jobPercent({ stage: 'reading', done: 512, total: 1024 })).toBe(50);
    expect(jobPercent({ stage: 'reading', done: 1, total: 3 })).toBe(33);
    expect(jobPercent({ stage: 'committing', done: 2048, total: 1024 })).toBe(100);
  });
});
