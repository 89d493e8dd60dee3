/**
 * Print a self-contained HTML document through the system print dialog, which offers "Save
 * as PDF" (Electron and browser mode alike): the document goes into a hidden srcdoc iframe
 * (same origin, so it inherits the app's CSP — inline <style> and SVG render, and the
 * sandbox runs no script in it), whose window is printed; the frame is removed on
 * `afterprint`, or `fallbackMs` after print() returned where that event never comes.
 * Resolves once print() returned; rejects if the document did not load or print() threw.
 */
export function printHtml(html: string, { title = 'Document to print', loadMs = 10_000, fallbackMs = 60_000 } = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const frame = document.createElement('iframe');
    frame.title = title;
    frame.tabIndex = -1;
    frame.setAttribute('aria-hidden', 'true');
    frame.setAttribute('sandbox', 'allow-same-origin allow-modals');
    Object.assign(frame.style, { position: 'fixed', right: '0', bottom: '0', width: '0', height: '0', border: '0' });
    frame.srcdoc = html;
    const remove = () => {
      clearTimeout(timer);
      frame.remove();
    };
    const fail = (error: unknown) => {
      remove();
      reject(error instanceof Error ? error : new Error(String(error)));
    };
    let timer = setTimeout(() => fail(new Error('the document to print did not load')), loadMs);
    document.body.append(frame);
    // Listen only once the frame is attached: the srcdoc document's load comes later.
    frame.addEventListener(
      'load',
      () => {
        clearTimeout(timer);
        const view = frame.contentWindow;
        if (!view) return fail(new Error('the document to print did not load'));
        view.addEventListener('afterprint', remove, { once: true });
        try {
          view.print();
        } catch (error) {
          return fail(error);
        }
        if (frame.isConnected) timer = setTimeout(remove, fallbackMs);
        resolve();
      },
      { once: true },
    );
  });
}
