// @vitest-environment jsdom
/** Every planner slider has an accessible name: the parameter's visible label (not empty, not a dangling id). */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { container, mountEachTest, root } from '../../reactRoot';
import { NumberSlider } from '../../../../../renderer/src/pages/budget/NumberSlider';
import { answerSpecs, epsilonSpec, synthSpecs } from '../../../../../renderer/src/pages/budget/plannerForm';

mountEachTest();

/** The accessible name per accname 1.2's first steps: aria-labelledby (each referenced element's text), then aria-label. */
function accessibleName(el: Element): string {
  const ids = el.getAttribute('aria-labelledby');
  if (ids) {
    const parts = ids.split(/\s+/).map((id) => document.getElementById(id)?.textContent?.trim() ?? '');
    if (parts.some((p) => p === '')) return '';
    return parts.join(' ').trim();
  }
  return el.getAttribute('aria-label')?.trim() ?? '';
}

describe('NumberSlider', () => {
  it.each([epsilonSpec, ...Object.values(synthSpecs), ...Object.values(answerSpecs)])('names its slider "$label"', (spec) => {
    act(() => root.render(<NumberSlider spec={spec} value={spec.min} onChange={() => undefined} />));
    const sliders = [...container.querySelectorAll('input[type="range"], [role="slider"]')];
    expect(sliders.length).toBeGreaterThan(0);
    for (const slider of sliders) {
      expect(accessibleName(slider)).toBe(spec.label);
      const described = slider.getAttribute('aria-describedby');
      expect(described && document.getElementById(described)?.textContent).toContain(spec.helper);
    }
    // The exact-value field beside it is named too.
    expect(container.querySelector('input:not([type="range"])')?.id).toBeTruthy();
    expect(container.querySelector(`label[for="${container.querySelector('input:not([type="range"])')!.id}"]`)?.textContent).toContain(spec.label);
  });
});

describe('every MUI Slider in the renderer', () => {
  it('is given an accessible name (aria-label, aria-labelledby or getAriaLabel)', () => {
    const dir = join(__dirname, '../../../../../renderer/src');
    const files = (readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith('.tsx'));
    const sliders: string[] = [];
    for (const file of files) {
      const source = readFileSync(join(dir, file), 'utf8');
      for (const match of source.matchAll(/<Slider\b[\s\S]*?\/>/g)) {
        sliders.push(file);
        expect(match[0], file).toMatch(/aria-labelledby=|aria-label=|getAriaLabel=/);
      }
    }
    expect(sliders.length).toBeGreaterThan(0);
  });
});
