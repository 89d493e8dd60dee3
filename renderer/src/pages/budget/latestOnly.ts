/**
 * Run at most one request at a time and report only the newest one's outcome. While a
 * request runs, a newer submission waits (replacing any older waiting one), so a fast
 * series of slider moves queues one request, not one per move, on the service; the answer
 * of a request superseded (or invalidated) before it returned is dropped.
 */
export type Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

interface Job<T> {
  run: () => Promise<T>;
  ticket: number;
}

export class LatestOnly<T> {
  private ticket = 0;
  private running = false;
  private waiting: Job<T> | null = null;

  constructor(private readonly report: (outcome: Outcome<T>) => void) {}

  submit(run: () => Promise<T>): void {
    this.waiting = { run, ticket: ++this.ticket };
    if (!this.running) this.next();
  }

  /** Whatever runs or waits now will not be reported. */
  invalidate(): void {
    this.ticket++;
    this.waiting = null;
  }

  private next(): void {
    const job = this.waiting;
    if (!job) return;
    this.waiting = null;
    this.running = true;
    Promise.resolve().then(job.run).then(
      (value) => this.settle(job.ticket, { ok: true, value }),
      (error: unknown) => this.settle(job.ticket, { ok: false, error }),
    );
  }

  private settle(ticket: number, outcome: Outcome<T>): void {
    this.running = false;
    if (ticket === this.ticket) this.report(outcome);
    this.next();
  }
}
