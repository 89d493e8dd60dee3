// @vitest-environment jsdom
/** The Models page shows a labelled progress indicator while the model status loads, and drops it once it has arrived. */
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { container, mountEachTest, root } from '../../reactRoot';
import type { VeilApi } from '../../../../../electron/shared/contract';
import { ModelsView } from '../../../../../renderer/src/pages/models/ModelsPage';

mountEachTest();

describe('Models page loading', () => {
  it('shows an accessible progress indicator until the model status arrives', async () => {
    let fail!: (error: Error) => void;
    const pending = new Promise<never>((_, reject) => (fail = reject));
    const api = { 'model.status': () => pending } as unknown as VeilApi;
    act(() => root.render(<ModelsView api={api} />));
    const spinner = container.querySelector('[role="progressbar"]');
    expect(spinner).not.toBeNull();
    expect(spinner!.getAttribute('aria-label')).toMatch(/loading/i);
    expect(container.querySelector('[aria-busy="true"]')).not.toBeNull();
    // An error ends the wait too: the retry alert replaces the indicator.
    await act(async () => {
      fail(new Error('offline'));
      await pending.catch(() => undefined);
    });
    expect(container.querySelector('[role="progressbar"]')).toBeNull();
    expect(container.querySelector('[aria-busy="true"]')).toBeNull();
  });
});
