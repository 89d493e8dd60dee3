/**
 * A revision number that goes up when the vault changes — on a `vault.changed` event or when
 * this page reports its own change (so a dropped event stream cannot leave it stale). Bursts
 * (an import's batches, an action and its event) coalesce into one step.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { VeilApi } from '../../../../electron/shared/contract';

const COALESCE_MS = 200;

export function useVaultRevision(api: VeilApi) {
  const [revision, setRevision] = useState(0);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const changed = useCallback(() => {
    if (timer.current !== null) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      setRevision((r) => r + 1);
    }, COALESCE_MS);
  }, []);
  useEffect(() => {
    const off = api.on('vault.changed', changed);
    return () => {
      off();
      if (timer.current !== null) clearTimeout(timer.current);
      timer.current = null;
    };
  }, [api, changed]);
  return { revision, changed };
}
