/**
 * The record table's page cache: rows arrive from `vault.records` in pages of 200 as the
 * analyst scrolls. Pages are kept in fill order and the oldest evicted past a bound, so
 * 100,000 rows never sit in memory at once. Invalidation bumps a generation: answers to
 * requests of an older generation are dropped; `keepRows` leaves the old rows on screen
 * (marked stale) until their refreshed pages arrive, so a refresh never blanks the table.
 */
export const PAGE_SIZE = 200;
const MAX_PAGES = 50;

/** The page indices covering rows `first`…`last` (inclusive). */
export function pagesForRange(first: number, last: number, pageSize = PAGE_SIZE): number[] {
  if (last < first || last < 0) return [];
  const pages: number[] = [];
  for (let p = Math.floor(Math.max(first, 0) / pageSize); p <= Math.floor(last / pageSize); p++) pages.push(p);
  return pages;
}

export class PageCache<T extends { id: number }> {
  private generationValue = 0;
  private readonly pages = new Map<number, T[]>();
  private readonly fresh = new Set<number>();
  private readonly loading = new Set<number>();

  constructor(
    readonly pageSize = PAGE_SIZE,
    private readonly maxPages = MAX_PAGES,
  ) {}

  get generation(): number {
    return this.generationValue;
  }

  row(index: number): T | undefined {
    return this.pages.get(Math.floor(index / this.pageSize))?.[index % this.pageSize];
  }

  /** Of the `wanted` pages, those to request now (neither fresh nor loading); marks them loading. */
  claim(wanted: readonly number[]): number[] {
    const claimed = wanted.filter((p) => !this.fresh.has(p) && !this.loading.has(p));
    for (const p of claimed) this.loading.add(p);
    return claimed;
  }

  /** Stores a fetched page; false (and nothing stored) when it answers an older generation. */
  fill(generation: number, page: number, rows: T[]): boolean {
    if (generation !== this.generationValue) return false;
    this.loading.delete(page);
    this.pages.delete(page);
    this.pages.set(page, rows);
    this.fresh.add(page);
    for (const oldest of this.pages.keys()) {
      if (this.pages.size <= this.maxPages) break;
      this.pages.delete(oldest);
      this.fresh.delete(oldest);
    }
    return true;
  }

  /** A request failed: the page may be claimed again. */
  release(generation: number, page: number): void {
    if (generation === this.generationValue) this.loading.delete(page);
  }

  invalidate(keepRows: boolean): void {
    this.generationValue++;
    this.fresh.clear();
    this.loading.clear();
    if (!keepRows) this.pages.clear();
  }

  /** Replaces one cached row (after an edit) wherever it is. */
  patch(row: T): void {
    for (const rows of this.pages.values()) {
      const index = rows.findIndex((r) => r.id === row.id);
      if (index >= 0) rows[index] = row;
    }
  }
}
