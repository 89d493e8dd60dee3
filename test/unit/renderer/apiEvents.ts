/** The event half of a scripted VeilApi for jsdom page tests: `on` as the page subscribes, `emit` as the service would. */
import { act } from 'react';

const listeners = new Map<string, Set<(payload: unknown) => void>>();

/** Drops every subscription (call before each test mounts its page). */
export const resetEvents = () => listeners.clear();

export function on(event: string, listener: (payload: unknown) => void): () => void {
  const set = listeners.get(event) ?? new Set();
  listeners.set(event, set.add(listener));
  return () => set.delete(listener);
}

export const emit = (event: string, payload: unknown) => act(() => listeners.get(event)?.forEach((listener) => listener(payload)));
