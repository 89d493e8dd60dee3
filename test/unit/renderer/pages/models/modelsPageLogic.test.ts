/** Models page logic without a DOM: load progress across the job's stages, optional integer fields, formatting. */
import { describe, expect, it } from 'vitest';
import { formatBytes, formatCount, parseOptionalInteger } from '../../../../../renderer/src/components/format';
import { loadProgressView } from '../../../../../renderer/src/pages/models/loadProgress';

describe('loadProgressView', () => {
  it('gives each of the four load stages a quarter of the bar, in order', () => {
    expect(loadProgressView(undefined)).toEqual({ percent: 0, label: 'Starting…' });
    expect(loadProgressView({ stage: 'validate', done: 0, total: 1 }).percent).toBe(0);
    expect(loadProgressView({ stage: 'hash', done: 1, total: 2 }).percent).toBe(38);
    expect(loadProgressView({ stage: 'start', done: 0, total: 1 })).toEqual({ percent: 50, label: 'Step 3 of 4: Starting the model host' });
    expect(loadProgressView({ stage: 'load', done: 1000, total: 1000 }).percent).toBe(100);
  });

  it('clamps odd counts and shows an indeterminate bar for an unknown stage', () => {
    expect(loadProgressView({ stage: 'load', done: 5, total: 0 }).percent).toBe(75);
    expect(loadProgressView({ stage: 'load', done: 2000, total: 1000 }).percent).toBe(100);
    expect(loadProgressView({ stage: 'warm-up', done: 1, total: 3, message: 'warming up' })).toEqual({ percent: null, label: 'warming up' });
  });
});

describe('parseOptionalInteger', () => {
  it('treats an empty field as "use the default" and accepts whole numbers in range', () => {
    expect(parseOptionalInteger('  ', 1, 256)).toEqual({ ok: true, value: undefined });
    expect(parseOptionalInteger(' 4 ', 1, 256)).toEqual({ ok: true, value: 4 });
    expect(parseOptionalInteger('0', 0, 512)).toEqual({ ok: true, value: 0 });
  });

  it('rejects fractions, signs, exponents and out-of-range values', () => {
    for (const text of ['1.5', '-1', '1e2', 'abc', '0', '257']) {
      expect(parseOptionalInteger(text, 1, 256)).toEqual({ ok: false, error: 'a whole number from 1 to 256' });
    }
  });
});

describe('formatting', () => {
  it('formats byte sizes and counts', () => {
    expect(formatBytes(null)).toBe('unknown');
    expect(formatBytes(53)).toBe('53 B');
    expect(formatBytes(690_176)).toBe('674.0 KiB');
    expect(formatCount(734)).toBe('734');
    expect(formatCount(1_234_567)).toBe('1,234,567 (1.2M)');
  });
});
