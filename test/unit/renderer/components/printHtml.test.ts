// @vitest-environment jsdom
/**
 * printHtml in jsdom (which does not render srcdoc, so the tests fire the frame's load
 * themselves): the document goes into a hidden, sandboxed frame whose window is printed,
 * and the frame is removed after printing — on afterprint, or after the fallback delay
 * where that event never comes; a print() that throws or a frame that never loads rejects
 * and leaves no frame behind.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { printHtml } from '../../../../renderer/src/components/printHtml';

const HTML = '<!doctype html><html><body><h1>Report</h1></body></html>';

/** The print frame printHtml attached, with print() replaced by `print`. */
function frameWith(print: (view: Window) => void): HTMLIFrameElement {
  const frame = document.querySelector('iframe')!;
  const view = frame.contentWindow!;
  view.print = vi.fn(() => print(view));
  return frame;
}
const load = (frame: HTMLIFrameElement) => frame.dispatchEvent(new Event('load'));

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  vi.useRealTimers();
  document.body.replaceChildren();
});

describe('printHtml', () => {
  it('prints the document in a hidden sandboxed frame and removes the frame on afterprint', async () => {
    const printed = printHtml(HTML, { title: 'Budget report' });
    const frame = frameWith((view) => view.dispatchEvent(new Event('afterprint')));
    expect(frame.srcdoc).toBe(HTML);
    expect(frame.title).toBe('Budget report');
    expect(frame.getAttribute('sandbox')).toBe('allow-same-origin allow-modals');
    expect(frame.getAttribute('aria-hidden')).toBe('true');
    expect(frame.tabIndex).toBe(-1);
    expect(frame.style.width).toBe('0px');
    const view = frame.contentWindow!;
    load(frame);
    await printed;
    expect(view.print).toHaveBeenCalledOnce();
    expect(frame.isConnected).toBe(false);
  });

  it('removes the frame after the fallback delay when afterprint never comes', async () => {
    const printed = printHtml(HTML, { fallbackMs: 5000 });
    const frame = frameWith(() => undefined);
    load(frame);
    await printed;
    vi.advanceTimersByTime(4999);
    expect(frame.isConnected).toBe(true);
    vi.advanceTimersByTime(1);
    expect(frame.isConnected).toBe(false);
  });

  it('rejects and removes the frame when print() throws', async () => {
    const printed = printHtml(HTML);
    const frame = frameWith(() => {
      throw new Error('printing is disabled');
    });
    load(frame);
    await expect(printed).rejects.toThrow('printing is disabled');
    expect(frame.isConnected).toBe(false);
  });

  it('rejects and removes the frame when the document does not load', async () => {
    const printed = printHtml(HTML, { loadMs: 1000 });
    const frame = frameWith(() => undefined);
    const { print } = frame.contentWindow!;
    vi.advanceTimersByTime(1000);
    await expect(printed).rejects.toThrow('did not load');
    expect(frame.isConnected).toBe(false);
    expect(print).not.toHaveBeenCalled();
  });
});
