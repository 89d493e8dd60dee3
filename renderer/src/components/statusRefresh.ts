/** Pages that change what the status bar shows (the model backend) ask it to refresh now. */
const EVENT = 'veil:status-changed';

export function requestStatusRefresh(): void {
  window.dispatchEvent(new Event(EVENT));
}

export function onStatusRefresh(listener: () => void): () => void {
  window.addEventListener(EVENT, listener);
  return () => window.removeEventListener(EVENT, listener);
}
