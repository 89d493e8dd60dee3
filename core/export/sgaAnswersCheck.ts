/**
 * A check of an SGA answers document (issue 15): every answer is one of its query's public
 * candidates, at the index it names. It shows a reader that the released answer is the
 * selection the certificate describes; that the candidates are public answers is the
 * mechanism's guarantee (core/icl/answering/sgaQuery.ts), not something a document can prove.
 */
import type { DpAnswersExport } from './dpAnswersFormat';

export function sgaCandidatesCheck(doc: Pick<DpAnswersExport, 'answers'>): { name: string; ok: boolean; detail: string } {
  const bad = doc.answers.findIndex((a) => !a.candidates || a.selected === undefined || a.candidates[a.selected] !== a.answer);
  return bad < 0
    ? { name: 'sga candidates', ok: true, detail: `each of ${doc.answers.length} answers is its selected public candidate` }
    : { name: 'sga candidates', ok: false, detail: `answer ${bad + 1} is not the candidate it names (or names none)` };
}
