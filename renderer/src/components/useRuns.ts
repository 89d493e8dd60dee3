/**
 * A page's runs (Synthesize, Ask, Augment, Audit): the list, the one selected read in full, and
 * what a job does to them: its run is selected and listed once the job has started, and both
 * are read again once it has ended.
 */
import { useState } from 'react';
import { useApiQuery } from './useApiQuery';

interface Source<Summary, Run> {
  list: () => Promise<Summary[]>;
  get: (id: number) => Promise<Run>;
}

export interface Runs<Summary, Run> {
  list: ReturnType<typeof useApiQuery<Summary[]>>;
  current: ReturnType<typeof useApiQuery<Run | null>>;
  selected: number | null;
  select: (id: number) => void;
  /** A job has started writing run `id`: select it and list it. */
  show: (id: number) => void;
  /** Read the list and the selected run again (a job ended, a run changed). */
  refresh: () => void;
}

/** `deps`: what the source reads through (the API); the runs are read again when they change. */
export function useRuns<Summary, Run>({ list, get }: Source<Summary, Run>, deps: unknown[]): Runs<Summary, Run> {
  const [selected, select] = useState<number | null>(null);
  const runs = useApiQuery(list, deps);
  const current = useApiQuery(() => (selected === null ? Promise.resolve(null) : get(selected)), deps, selected);
  return {
    list: runs,
    current,
    selected,
    select,
    show: (id) => (select(id), runs.reload()),
    refresh: () => (runs.reload(), current.reload()),
  };
}
