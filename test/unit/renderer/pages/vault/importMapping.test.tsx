// @vitest-environment jsdom
/** The import dialog's options: the random split into private / public / held-out, with its seed and its validation. */
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { ImportMapping } from '../../../../../renderer/src/pages/vault/ImportMapping';
import { initialRandomSplit, type ImportOptions } from '../../../../../renderer/src/pages/vault/importForm';
import { container, mountEachTest, root } from '../../reactRoot';


mountEachTest();

const mapping = { text: 'body', label: '', subject: '', split: '', output: '' };
const render = (options: ImportOptions, onOptions: (o: ImportOptions) => void) =>
  act(() => root.render(<ImportMapping columns={['body']} mapping={mapping} options={options} disabled={false} onMapping={() => {}} onOptions={onOptions} />));
const field = (label: string) => [...container.querySelectorAll('label')].find((l) => l.textContent?.startsWith(label))!;
const input = (label: string) => document.getElementById(field(label).htmlFor) as HTMLInputElement;

describe('ImportMapping random split', () => {
  it('offers the random split with shares and an optional seed, says the CSPRNG draws without one, and flags shares that do not add up', () => {
    let options: ImportOptions = { split: 'private', onBadRow: 'skip', random: initialRandomSplit };
    const update = (o: ImportOptions) => {
      options = o;
      render(options, update);
    };
    render(options, update);
    const checkbox = [...container.querySelectorAll<HTMLInputElement>('input[type="checkbox"]')].find((c) => c.closest('label')?.textContent?.includes('at random'))!;
    expect(checkbox).toBeDefined();
    expect(container.textContent).not.toContain('Held-out %');
    act(() => checkbox.click());
    expect(options.random?.on).toBe(true);
    expect(input('Private %').value).toBe('80');
    expect(input('Public %').value).toBe('10');
    expect(input('Held-out %').value).toBe('10');
    expect(container.textContent).toContain('Without a seed the split is drawn from the CSPRNG');
    expect(container.querySelector('[role="alert"]')).toBeNull();
    // The fixed split no longer applies.
    const fixedSplit = [...container.querySelectorAll('[role="combobox"]')].find((c) => document.getElementById(c.getAttribute('aria-labelledby')!)?.textContent?.startsWith('Split of rows without one'))!;
    expect(fixedSplit.getAttribute('aria-disabled')).toBe('true');
    update({ ...options, random: { ...options.random!, public: '30' } });
    expect(container.querySelector('[role="alert"]')?.textContent).toBe('The shares add up to 120 %, not 100 %.');
  });
});
