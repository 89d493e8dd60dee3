// @vitest-environment jsdom
/** The utility table sets every prompt against always answering the most common label, in accuracy and balanced accuracy. */
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { describe, expect, it } from 'vitest';
import { UtilityTable } from '../../../../../renderer/src/pages/synthesize/UtilityTable';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

describe('UtilityTable', () => {
  it('shows the most-common-label bar and balanced accuracy beside accuracy', () => {
    const container = document.createElement('div');
    const root = createRoot(container);
    const utility = {
      metric: 'accuracy' as const, examples: 400, labels: { ham: 280, spam: 120 }, synthetic: 0.7075, zeroShot: 0.3, realPublic: 0.8475,
      mostCommon: { label: 'ham', accuracy: 0.7 }, balanced: { synthetic: 0.5125, zeroShot: 0.5, realPublic: 0.8292 }, model: 'reference learner',
    };
    act(() => root.render(<UtilityTable utility={utility} />));
    const rows = [...container.querySelectorAll('tr')].map((tr) => [...tr.querySelectorAll('th, td')].map((c) => c.textContent));
    expect(rows).toEqual([
      ['Prompt', 'Accuracy', 'Balanced accuracy'],
      ['DP synthetic prompt', '70.8 %', '51.2 %'],
      ['Zero-shot', '30.0 %', '50.0 %'],
      ['Random real public demonstrations (non-private reference)', '84.8 %', '82.9 %'],
      ['Always “ham” (the most common label)', '70.0 %', '50.0 %'],
    ]);
    expect(container.textContent).toContain('on 400 held-out examples (ham 280, spam 120)');
    act(() => root.unmount());
  });
});
