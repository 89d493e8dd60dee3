/**
 * Run an API call on mount, whenever `deps` change and on `reload`, exposing data, error and
 * loading state. `key` names what is read (a dataset, a record): data or an error read for
 * another key is never returned, so switching datasets shows "loading" instead of the last
 * dataset's numbers, while a change of the other deps (a revision) keeps the current data on
 * screen until the new answer arrives.
 */
import { useCallback, useEffect, useState } from 'react';

type Key = string | number | null | undefined;

interface Answer<T> {
  key: Key;
  data?: T;
  error?: Error;
}

/** Nothing has answered yet: matches no key. */
const NOTHING = Symbol('nothing loaded');

export function useApiQuery<T>(load: () => Promise<T>, deps: unknown[] = [], key?: Key) {
  const [answer, setAnswer] = useState<Answer<T> | typeof NOTHING>(NOTHING);
  const [loading, setLoading] = useState(true);
  const [tick, setTick] = useState(0);
  const run = useCallback(load, [...deps, key]);
  useEffect(() => {
    let live = true;
    setLoading(true);
    run().then(
      (data) => live && (setAnswer({ key, data }), setLoading(false)),
      (err: unknown) => {
        if (!live) return;
        const error = err instanceof Error ? err : new Error(String(err));
        setAnswer((last) => ({ key, data: last !== NOTHING && last.key === key ? last.data : undefined, error }));
        setLoading(false);
      },
    );
    return () => {
      live = false;
    };
  }, [run, tick]); // `key` changes `run`
  const current = answer !== NOTHING && answer.key === key ? answer : undefined;
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { data: current?.data, error: current?.error, loading: loading || current === undefined, reload };
}
