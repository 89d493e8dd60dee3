/**
 * A batch of privately answered queries: one fresh sample per query (answerQuery.ts), progress
 * per query and per teacher, and a check that every query's mechanism reported exactly the
 * event the batch charged for it (answerEvents.ts) — a mismatch stops the batch (its
 * reservation stays charged) rather than release something priced differently. Backend
 * failures of teachers are summed and reported once, after the batch.
 */
import { PTR_SELECT_SHARE } from './aggregators';
import { mechanismEvent } from './answerEvents';
import { answerQuery, type AnswerResult, type AnswerSettings } from './answerQuery';

export interface BatchProgress {
  queriesDone: number;
  queriesTotal: number;
  teachersDone: number;
  teachersTotal: number;
}

export interface BatchResult {
  results: AnswerResult[];
  /** Teachers replaced by "no answer" after a backend failure, over the whole batch. */
  failedTeachers: number;
}

export async function answerBatch(settings: Omit<AnswerSettings, 'onTeacher'>, queries: readonly string[], onProgress?: (p: BatchProgress) => void): Promise<BatchResult> {
  const expected = settings.noise === null ? null : JSON.stringify(mechanismEvent(settings.method, settings.noise, settings.ptrDelta, PTR_SELECT_SHARE, settings.sga?.dpm.depth));
  const results: AnswerResult[] = [];
  let failedTeachers = 0;
  for (const [i, query] of queries.entries()) {
    settings.signal?.throwIfAborted();
    const report = (teachersDone: number, teachersTotal: number) => onProgress?.({ queriesDone: i, queriesTotal: queries.length, teachersDone, teachersTotal });
    const answered = await answerQuery({ ...settings, onTeacher: report }, query);
    if (JSON.stringify(answered.event) !== (expected ?? 'null')) throw new Error(`query ${i + 1}: the mechanism reported an event other than the one charged`);
    results.push(answered.result);
    failedTeachers += answered.failures;
    onProgress?.({ queriesDone: i + 1, queriesTotal: queries.length, teachersDone: settings.ensemble, teachersTotal: settings.ensemble });
  }
  return { results, failedTeachers };
}
