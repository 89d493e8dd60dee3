/**
 * A dataset being deleted stays out of the Vault page — list, statistics, records — from the
 * moment its deletion starts until a list read after the deletion ended is on screen, so no
 * refresh asks for it once it is gone. After that its id means nothing: a new dataset may
 * reuse it. `listedAt` is the vault revision the list on screen was read at.
 */
import { useCallback, useEffect, useRef, useState } from 'react';

interface Removal {
  id: number;
  /** The latest vault revision when the deletion ended; null while it runs. */
  endedAt: number | null;
}

export function useRemovedDataset(revision: number, listedAt: number) {
  const [removal, setRemoval] = useState<Removal | null>(null);
  const latest = useRef(revision);
  useEffect(() => {
    latest.current = revision;
  }, [revision]);
  /** The deletion of `id` starts, or (null) did not remove the dataset after all. */
  const removing = useCallback((id: number | null) => setRemoval(id === null ? null : { id, endedAt: null }), []);
  const removed = useCallback(() => setRemoval((r) => r && { ...r, endedAt: latest.current }), []);
  const hiddenId = removal && (removal.endedAt === null || listedAt <= removal.endedAt) ? removal.id : null;
  return { hiddenId, removing, removed };
}
