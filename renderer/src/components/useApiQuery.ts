/** Run an API call on mount (and on `reload`), exposing data, error and loading state. */
import { useCallback, useEffect, useState } from 'react';

export function useApiQuery<T>(load: () => Promise<T>, deps: unknown[] = []) {
  const [data, setData] = useState<T | undefined>();
  const [error, setError] = useState<Error | undefined>();
  const [loading, setLoading] = useState(true);
  const [tick, setTick] = useState(0);
  const run = useCallback(load, deps);
  useEffect(() => {
    let live = true;
    setLoading(true);
    run().then(
      (value) => live && (setData(value), setError(undefined), setLoading(false)),
      (err: unknown) => live && (setError(err instanceof Error ? err : new Error(String(err))), setLoading(false)),
    );
    return () => {
      live = false;
    };
  }, [run, tick]);
  return { data, error, loading, reload: () => setTick((t) => t + 1) };
}
