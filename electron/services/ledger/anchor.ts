/**
 * The ledger anchor: an append-only file beside the database (`veil.ledger-anchor`) with one
 * line per ledger entry written — dataset, chain position and entry hash — appended after
 * the entry's transaction commits. Every reservation and every verification checks that the
 * newest anchored position of each dataset is still in its chain with the same hash, which
 * the hash chain alone cannot tell: entries cut from the end (with the guard triggers
 * dropped and put back) or a chain re-hashed from scratch (a raised cap) verify on their
 * own. The database records when anchoring began, so a deleted anchor file is caught too.
 * Someone able to rewrite the database, the anchor file and that record together is not
 * caught here: a copy of the anchor kept elsewhere (`veil ledger anchor`, the report) is
 * the witness for that. What a local ledger can and cannot detect: docs/ledger.md.
 */
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import type { Database, Queryable } from '../db/database';
import type { VerificationProblem } from './chainIntegrity';
import type { LedgerEntryRecord } from './hashChain';

export const ANCHOR_FILE = 'veil.ledger-anchor';

const lineSchema = z.object({ dataset: z.number().int(), seq: z.number().int().min(1), hash: z.string().regex(/^[0-9a-f]{64}$/), at: z.string() }).strict();
export type AnchorLine = z.infer<typeof lineSchema>;

/** The anchor file of a database file (none for an in-memory database). */
export const anchorFileOf = (db: Pick<Database, 'file'>): string | null => (db.file === ':memory:' || db.file === '' ? null : join(dirname(db.file), ANCHOR_FILE));

/** Appends lines and flushes them to disk (O_APPEND: lines of several processes never overwrite each other). */
function appendLines(file: string, lines: readonly AnchorLine[]): void {
  if (lines.length === 0) return;
  const fd = openSync(file, 'a', 0o600);
  try {
    writeSync(fd, lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Records a committed entry as its dataset's chain head. The entry is written already: a
 * failure here (a full disk) must not make the caller believe it was not, so it only leaves
 * the anchor a step behind (an older head, still checked).
 */
export function anchorEntry<T extends Pick<LedgerEntryRecord, 'datasetId' | 'seq' | 'entryHash'>>(db: Pick<Database, 'file'>, entry: T): T {
  const file = anchorFileOf(db);
  try {
    if (file) appendLines(file, [{ dataset: entry.datasetId, seq: entry.seq, hash: entry.entryHash, at: new Date().toISOString() }]);
  } catch {
    // see above
  }
  return entry;
}

export interface AnchorState {
  /** What the lines came from, for messages. */
  source: string;
  /** Every line, in file order. */
  lines: AnchorLine[];
  /** Per dataset: its newest anchored position. */
  heads: Map<number, AnchorLine>;
  problems: VerificationProblem[];
}

const anchorProblem = (message: string, datasetId = 0): VerificationProblem => ({ datasetId, entryId: null, seq: null, field: 'anchor', message });

/** Parses anchor lines (the file, or a copy kept elsewhere); a line that does not parse is a problem (the text was edited). */
export function parseAnchor(text: string, source: string): AnchorState {
  const state: AnchorState = { source, lines: [], heads: new Map(), problems: [] };
  const rows = text.split('\n');
  if (rows.at(-1) === '') rows.pop();
  rows.forEach((row, index) => {
    const parsed = lineSchema.safeParse(safeJson(row));
    if (!parsed.success) return void state.problems.push(anchorProblem(`line ${index + 1} of ${source} is not an anchor line: it was edited`));
    state.lines.push(parsed.data);
    const head = state.heads.get(parsed.data.dataset);
    if (!head || parsed.data.seq >= head.seq) state.heads.set(parsed.data.dataset, parsed.data);
  });
  return state;
}

/** The anchor file's lines (none when it does not exist). */
export const readAnchor = (file: string): AnchorState => parseAnchor(existsSync(file) ? readFileSync(file, 'utf8') : '', `the anchor file ${file}`);

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * Whether each anchored head is still in its chain, unchanged. `chains` holds the chains
 * checked (a dataset in scope with no entries left has an empty one); anchored datasets
 * outside it are not checked.
 */
export function headProblems(state: Pick<AnchorState, 'heads' | 'source'>, chains: ReadonlyMap<number, readonly LedgerEntryRecord[]>): VerificationProblem[] {
  const problems: VerificationProblem[] = [];
  for (const [datasetId, head] of state.heads) {
    const chain = chains.get(datasetId);
    if (!chain) continue;
    const entry = chain[head.seq - 1];
    if (!entry) problems.push(anchorProblem(`${state.source} records position #${head.seq} (${head.hash}) of dataset ${datasetId}, but its chain has ${chain.length} entries: entries were removed from the end`, datasetId));
    else if (entry.entryHash !== head.hash) problems.push(anchorProblem(`${state.source} records position #${head.seq} of dataset ${datasetId} as ${head.hash}, but the chain has ${entry.entryHash} there: the chain was rewritten`, datasetId));
  }
  return problems;
}

const STARTED = 'SELECT started_at AS startedAt FROM ledger_anchor WHERE id = 1';
const START = 'INSERT OR IGNORE INTO ledger_anchor (id, started_at) VALUES (1, $now)';
const HEADS = `SELECT dataset_id AS datasetId, seq, entry_hash AS entryHash FROM ledger_entries e
  WHERE seq = (SELECT MAX(seq) FROM ledger_entries WHERE dataset_id = e.dataset_id)`;

/**
 * The anchor of this database, checked against `chains`. A database whose anchoring has not
 * begun (made by an older Veil) has its current heads written as the anchor's first lines;
 * one whose anchoring began but whose file is gone is a problem.
 */
export async function checkAnchor(db: Database, q: Queryable, chains: ReadonlyMap<number, readonly LedgerEntryRecord[]>): Promise<VerificationProblem[]> {
  const file = anchorFileOf(db);
  if (!file) return [];
  const started = await q.get<{ startedAt: string }>(STARTED);
  if (!started) {
    const anchored = readAnchor(file).heads;
    const heads = (await q.all<{ datasetId: number; seq: number; entryHash: string }>(HEADS)).filter((h) => anchored.get(h.datasetId)?.hash !== h.entryHash);
    const at = new Date().toISOString();
    appendLines(file, heads.map((h) => ({ dataset: h.datasetId, seq: h.seq, hash: h.entryHash, at })));
    await q.run(START, { now: at });
    return [];
  }
  if (!existsSync(file)) return [anchorProblem(`the anchor file ${file} is missing (anchoring began ${started.startedAt}): it was deleted or moved, so entries removed from the end cannot be ruled out`)];
  const state = readAnchor(file);
  return [...state.problems, ...headProblems(state, chains)];
}
