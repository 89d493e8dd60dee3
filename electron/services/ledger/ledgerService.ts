/**
 * The ledger service: one per context, over the app database. Other services charge
 * releases through `reserve` / `commit` and ask `remainingCount`; the handlers and the CLI
 * read budgets, summaries and entries. Every append pushes `ledger.changed`.
 * The composed accounting of a chain is cached by its head hash (every entry, budget
 * changes included, moves the head, so a cached value is never stale).
 */
import { userInfo } from 'node:os';
import type { PrivacyEvent } from '../../../core/accounting/events';
import type { Bounds } from '../../../core/accounting/accountant';
import { epsilonNumber, ledgerParametersSchema, toEpsilonBound, type BudgetDto, type EpsilonBoundsDto, type LedgerSummary } from '../../shared/api/ledger';
import type { ServiceContext } from '../context';
import { appDatabase } from '../db/appDatabase';
import type { Database, Queryable } from '../db/database';
import { privacyUnitCount, resolveDataset, type DatasetRef } from './datasets';
import { entryViews, type LedgerEntryView } from './entryViews';
import { LedgerError, NoBudgetError } from './errors';
import { GENESIS_HASH, type LedgerEntryRecord } from './hashChain';
import { accountSpend, epsilonCurve, NOTHING_SPENT } from './ledgerAccounting';
import { readChain, readEntry } from './ledgerStore';
import { remainingCount, type RemainingCount } from './remaining';
import * as protocol from './reservations';
import { anchorFileOf, readAnchor, type AnchorLine } from './anchor';
import { isSizePublic, releaseDatasetSizes, sizeParameters } from '../sizes/poolSizes';
import { verifyLedger, type VerificationReport, type VerifyOptions } from './verify';
import { defaultDelta } from '../../../core/accounting/defaultDelta';

type LedgerHost = Pick<ServiceContext, 'emit' | 'jobs' | 'mode'>;
type Account = Pick<LedgerSummary, 'spent' | 'curve'>;

export interface ChargeMeta {
  /** Why: shown in the ledger and the report. Never private text. */
  purpose: string;
  /** Mechanism parameters: numbers, flags, short public strings (ledgerParametersSchema). */
  parameters?: Record<string, unknown>;
  /** The job that releases the output: if it ends without a commit, the reservation is flagged. */
  jobId?: string;
  /** Default: the OS user and the app mode. */
  actor?: string;
  /** The privacy unit the event was priced for (refused if the dataset's unit changed since). */
  privacyUnit?: 'record' | 'subject';
}

/** One dataset's chain as read in one query, with what is derived from it. */
interface Snapshot {
  dataset: protocol.DatasetKey;
  chain: LedgerEntryRecord[];
  budget: LedgerEntryRecord | undefined;
  events: PrivacyEvent[];
  head: { seq: number; hash: string };
}

function defaultActor(mode: string): string {
  try {
    return `${userInfo().username} (${mode})`;
  } catch {
    return `unknown user (${mode})`;
  }
}

function budgetWarnings(units: number | null, delta: number, cap: number, spent: number): string[] {
  const warnings: string[] = [];
  if (units && delta >= 1 / units) warnings.push(`δ=${delta} ≥ 1/N=${1 / units} (N=${units} privacy units): a δ this large permits releasing a whole record; use δ ≤ 1/(10·N)`);
  if (spent === Infinity) warnings.push(`no finite ε bounds what is already spent at δ=${delta}: a release was charged with a larger δ₀; further releases will be refused`);
  else if (spent > cap) warnings.push(`ε=${spent.toPrecision(4)} is already spent, above the new cap: further releases will be refused`);
  return warnings;
}

const boundsDto = (b: Bounds): EpsilonBoundsDto => ({ lower: toEpsilonBound(b.lower), estimate: toEpsilonBound(b.estimate), upper: toEpsilonBound(b.upper) });
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export class LedgerService {
  /** Reservations without a job made here and not yet committed: 'reserved', not orphaned. */
  private readonly inFlight = new Set<number>();
  private readonly accounts = new Map<number, { head: string; account: Account }>();
  private readonly actor: string;

  constructor(readonly db: Database, private readonly host: LedgerHost) {
    this.actor = defaultActor(host.mode);
  }

  /** Charges `event` before a release. Throws BudgetExceededError or NoBudgetError, writing nothing. */
  async reserve(ref: DatasetRef, event: PrivacyEvent, meta: ChargeMeta): Promise<LedgerEntryRecord> {
    const parameters = ledgerParametersSchema.parse(meta.parameters ?? {});
    const dataset = await resolveDataset(this.db, ref);
    const entry = await protocol.reserve(this.db, dataset, event, { ...meta, parameters, actor: meta.actor ?? this.actor });
    if (!entry.jobId) this.inFlight.add(entry.id);
    this.changed(entry);
    return entry;
  }

  /** Completes a reservation once its output is released (`outputHash`: SHA-256 of what was released). */
  async commit(reservationId: number, options: { outputHash?: string; actor?: string } = {}): Promise<LedgerEntryRecord> {
    return (await this.commitWith(reservationId, options, async () => undefined)).entry;
  }

  /**
   * `commit` and the writes that release the output in one transaction of this database
   * (`release` must write through `tx` only): both are written or neither is, when it throws.
   */
  async commitWith<T>(reservationId: number, options: { outputHash?: string; actor?: string }, release: (tx: Queryable, entry: LedgerEntryRecord) => Promise<T>): Promise<{ entry: LedgerEntryRecord; result: T }> {
    const done = await protocol.commitWith(this.db, reservationId, { actor: options.actor ?? this.actor, outputHash: options.outputHash }, release);
    this.inFlight.delete(reservationId);
    this.changed(done.entry);
    return done;
  }

  /** How many more releases like `event` fit under the dataset's cap. */
  async remainingCount(ref: DatasetRef, event: PrivacyEvent): Promise<RemainingCount> {
    const { dataset, budget, events } = await this.snapshot(ref);
    if (!budget) throw new NoBudgetError(dataset.name);
    return remainingCount({ spent: events, event, cap: budget.epsilonCap!, delta: budget.delta! });
  }

  /**
   * A release made outside Veil: reserve and commit at once. The answer is built from the two
   * entries just written, with no further reading or accounting, so that nothing after the
   * commit can fail and make a caller believe the release was not charged (and charge it again).
   */
  async record(ref: DatasetRef, event: PrivacyEvent, meta: ChargeMeta): Promise<{ reservation: LedgerEntryView; commit: LedgerEntryView }> {
    const reservation = await this.reserve(ref, event, meta);
    const commit = await this.commit(reservation.id, { actor: meta.actor });
    const [reservationView, commitView] = entryViews([reservation, commit], () => false);
    return { reservation: reservationView, commit: commitView };
  }

  /**
   * Sets or changes the budget (an entry). δ defaults to defaultDelta(N) when the vault knows N; once the
   * dataset has charges, a larger δ is refused (DeltaRaiseError) and an omitted one keeps the δ in force.
   */
  async setBudget(ref: DatasetRef, change: { epsilon: number; delta?: number; purpose?: string }): Promise<{ budget: BudgetDto; warnings: string[] }> {
    const dataset = await resolveDataset(this.db, ref);
    // N is counted once: in the budget's transaction when it needs a default δ, else after it.
    let units: number | null | undefined;
    // Without charges (as the budget's transaction sees them), N of the default δ: a noisy count
    // charged with the budget entry (the only charge then, pure ε: whether it fits the cap does
    // not depend on the draw), or the exact count where declared public. With charges, the
    // transaction keeps the δ in force and calls nothing here (reservations.ts).
    const fromUnits = async (tx: Queryable) => {
      const exact = (units = await privacyUnitCount(tx, dataset.id));
      if (!exact) throw new LedgerError(`pass δ: the number of privacy units of "${dataset.name}" is unknown, so no default δ ≪ 1/N can be chosen`);
      const sized = await defaultDeltaUnits(tx, dataset.id, exact);
      return { delta: defaultDelta(sized.units), charge: sized.charge };
    };
    const entry = await protocol.setBudget(this.db, dataset, { epsilon: change.epsilon, delta: change.delta, defaultDelta: fromUnits, purpose: change.purpose, actor: this.actor });
    this.changed(entry);
    if (units === undefined) units = await privacyUnitCount(this.db, dataset.id);
    const budget: BudgetDto = { datasetId: dataset.id, dataset: dataset.name, epsilon: entry.epsilonCap!, delta: entry.delta!, setAt: entry.createdAt, entryId: entry.id, privacyUnits: units };
    // The budget is written: a failure to account the spend now is a warning, never an error.
    try {
      const { spent } = this.account(await this.snapshot(dataset.id));
      return { budget, warnings: budgetWarnings(units, entry.delta!, change.epsilon, epsilonNumber(spent.epsilon.upper)) };
    } catch (error) {
      return { budget, warnings: [...budgetWarnings(units, entry.delta!, change.epsilon, 0), `the budget was set, but the spend could not be computed: ${messageOf(error)}`] };
    }
  }

  async budget(ref: DatasetRef): Promise<BudgetDto | null> {
    return this.budgetOf(await this.snapshot(ref));
  }

  async summary(ref: DatasetRef): Promise<LedgerSummary> {
    return (await this.statement(ref)).summary;
  }

  /** The summary and the entries, from one read of the chain (reports, exports). */
  async statement(ref: DatasetRef): Promise<{ summary: LedgerSummary; entries: LedgerEntryView[] }> {
    const snapshot = await this.snapshot(ref);
    const { spent, curve } = this.account(snapshot);
    const budget = await this.budgetOf(snapshot);
    const entries = await this.views(snapshot.chain);
    const count = (status: string) => entries.filter((v) => v.status === status).length;
    const summary: LedgerSummary = {
      dataset: snapshot.dataset,
      budget,
      spent,
      remainingEpsilon: budget && Math.max(0, budget.epsilon - epsilonNumber(spent.epsilon.upper)),
      curve,
      reservations: { reserved: count('reserved'), committed: count('committed'), orphaned: count('orphaned') },
      entries: snapshot.chain.length,
      head: snapshot.head,
    };
    return { summary, entries };
  }

  async entries(ref: DatasetRef): Promise<LedgerEntryView[]> {
    return this.views((await this.snapshot(ref)).chain);
  }

  /** One entry by id (e.g. the one a certificate names). */
  entry(id: number): Promise<LedgerEntryRecord | undefined> {
    return readEntry(this.db, id);
  }

  /** The anchor file's lines, of one dataset or all, and each dataset's newest anchored head (checked first). */
  async anchor(ref?: DatasetRef): Promise<{ file: string; content: string; heads: AnchorLine[] }> {
    const datasetId = ref === undefined ? undefined : (await resolveDataset(this.db, ref)).id;
    const file = anchorFileOf(this.db);
    if (!file) throw new LedgerError('an in-memory ledger has no anchor file');
    await this.verify(datasetId); // begins anchoring a ledger made by an older Veil
    const state = readAnchor(file);
    const lines = state.lines.filter((l) => datasetId === undefined || l.dataset === datasetId);
    return { file, content: lines.map((l) => `${JSON.stringify(l)}\n`).join(''), heads: [...state.heads.values()].filter((l) => datasetId === undefined || l.dataset === datasetId) };
  }

  async verify(ref?: DatasetRef, options?: VerifyOptions): Promise<VerificationReport> {
    const datasetId = ref === undefined ? undefined : (await resolveDataset(this.db, ref)).id;
    return verifyLedger(this.db, datasetId, options);
  }

  private async snapshot(ref: DatasetRef): Promise<Snapshot> {
    const dataset = await resolveDataset(this.db, ref);
    const chain = await readChain(this.db, dataset.id);
    const last = chain.at(-1);
    return {
      dataset,
      chain,
      budget: chain.findLast((e) => e.type === 'budget'),
      events: chain.filter((e) => e.type === 'reserve').map(protocol.storedEvent),
      head: last ? { seq: last.seq, hash: last.entryHash } : { seq: 0, hash: GENESIS_HASH },
    };
  }

  private async budgetOf({ dataset, budget }: Snapshot): Promise<BudgetDto | null> {
    if (!budget) return null;
    const privacyUnits = await privacyUnitCount(this.db, dataset.id);
    return { datasetId: dataset.id, dataset: dataset.name, epsilon: budget.epsilonCap!, delta: budget.delta!, setAt: budget.createdAt, entryId: budget.id, privacyUnits };
  }

  /** Spend and curve as the API states them: "Infinity" where no finite ε exists (an (ε, δ₀) charge above that δ). */
  private account({ dataset, budget, events, head }: Snapshot): Account {
    const cached = this.accounts.get(dataset.id);
    if (cached?.head === head.hash) return cached.account;
    const spent = budget ? accountSpend(events, budget.delta!) : NOTHING_SPENT;
    const account: Account = {
      spent: { accountant: spent.accountant, epsilon: boundsDto(spent.epsilon), rdp: spent.rdp && boundsDto(spent.rdp) },
      curve: budget ? epsilonCurve(events, budget.delta!).map((p) => ({ delta: p.delta, epsilon: toEpsilonBound(p.epsilon) })) : [],
    };
    this.accounts.set(dataset.id, { head: head.hash, account });
    return account;
  }

  /** Views with each uncommitted reservation's job looked up once (in this or another live process). */
  private async views(chain: readonly LedgerEntryRecord[]): Promise<LedgerEntryView[]> {
    const committed = new Set(chain.flatMap((r) => (r.type === 'commit' && r.reservationId !== null ? [r.reservationId] : [])));
    const jobIds = new Set(chain.flatMap((r) => (r.type === 'reserve' && r.jobId && !committed.has(r.id) ? [r.jobId] : [])));
    const running = new Set<string>();
    for (const id of jobIds) if (await this.host.jobs.isRunning(id)) running.add(id);
    return entryViews(chain, (r) => (r.jobId ? running.has(r.jobId) : this.inFlight.has(r.id)));
  }

  private changed(entry: LedgerEntryRecord): void {
    this.host.emit('ledger.changed', { datasetId: entry.datasetId, entryId: entry.id, type: entry.type, head: entry.entryHash });
  }
}

/**
 * N for the default δ (issue 20): the exact count where the analyst declared the size public,
 * else a noisy count (noisyPoolSizes.ts) whose release the budget entry's transaction charges.
 */
async function defaultDeltaUnits(q: Queryable, datasetId: number, exact: number) {
  const unit = (await q.get<{ unit: 'record' | 'subject' }>('SELECT privacy_unit AS unit FROM datasets WHERE id = $datasetId', { datasetId }))!.unit;
  const release = releaseDatasetSizes({ privacyUnit: unit, sizePublic: await isSizePublic(q, datasetId) }, new Map([['all', exact]]));
  const units = release.sizes.get('all')!;
  const charge = release.event && { event: release.event, purpose: 'noisy count of privacy units for the default δ', parameters: { ...sizeParameters(release.source) } };
  return { units, charge: charge ?? undefined };
}

/** The context's ledger service. */
export function getLedgerService(ctx: ServiceContext): Promise<LedgerService> {
  return ctx.singleton('ledger', async () => new LedgerService(await appDatabase(ctx), ctx));
}
