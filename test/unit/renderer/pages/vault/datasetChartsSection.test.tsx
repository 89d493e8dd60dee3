// @vitest-environment jsdom
/** The record table comes before ~900 px of charts: the overview holds no charts; the charts section folds away. */
import { act } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { container, mountEachTest, remount, root } from '../../reactRoot';
import type { DatasetDto } from '../../../../../electron/shared/api/vault';
import type { VaultStats } from '../../../../../renderer/src/pages/vault/chartData';
import { CHARTS_HIDDEN_KEY, DatasetChartsSection } from '../../../../../renderer/src/pages/vault/DatasetChartsSection';
import { DatasetOverview } from '../../../../../renderer/src/pages/vault/DatasetOverview';

vi.mock('../../../../../renderer/src/pages/vault/DatasetCharts', () => ({ DatasetCharts: () => <figure aria-label="charts" /> }));

beforeEach(() => localStorage.clear());
mountEachTest();

const stats = { labels: [], splits: { private: 1, public: 0, heldOut: 0 }, subjects: 0, tags: [], pii: [] } as unknown as VaultStats;
const dataset = { id: 1, name: 'D', task: 'classification', labels: ['a'], privacyUnit: 'record', subjectCap: 1, description: '', counts: { total: 1, private: 1, public: 0, heldOut: 0 } } as unknown as DatasetDto;
const charts = () => container.querySelectorAll('figure[aria-label="charts"]').length;
const toggle = () => container.querySelector<HTMLButtonElement>('button[aria-expanded]')!;

describe('charts after the records', () => {
  it('the dataset overview (above the records) no longer holds the charts', () => {
    act(() => root.render(<DatasetOverview dataset={dataset} stats={stats} statsError={undefined} actions={null} />));
    expect(container.querySelector('[aria-label="dataset details"]')).not.toBeNull();
    expect(charts()).toBe(0);
  });

  it('shows the charts in their own section, which folds away and remembers it', () => {
    act(() => root.render(<DatasetChartsSection stats={stats} />));
    expect(charts()).toBe(1);
    expect(toggle().getAttribute('aria-expanded')).toBe('true');
    act(() => toggle().click());
    expect(charts()).toBe(0);
    expect(toggle().textContent).toBe('Show charts');
    expect(localStorage.getItem(CHARTS_HIDDEN_KEY)).toBe('1');
    remount();
    act(() => root.render(<DatasetChartsSection stats={stats} />));
    expect(charts()).toBe(0);
    act(() => toggle().click());
    expect(charts()).toBe(1);
    expect(localStorage.getItem(CHARTS_HIDDEN_KEY)).toBeNull();
  });
});
