/**
 * The import report as it accumulates: counts of everything, and the line numbers and
 * reasons of the first 1,000 duplicates and bad rows (so a file of a million bad rows
 * cannot blow up memory or the job record). Holds no record text.
 */
import type { BadRow, ImportReport } from '../../../shared/api/vaultFiles';
import type { FlushResult } from './importWriter';

const KEEP = 1000;

export class ReportBuilder {
  rowsRead = 0;
  accepted = 0;
  /** Rows mapped with no subject id (counted for subject-level datasets). */
  withoutSubject = 0;
  private duplicateCount = 0;
  private readonly duplicateLines: number[] = [];
  private badCount = 0;
  private readonly badRows: BadRow[] = [];

  addBad(row: BadRow): void {
    this.badCount++;
    if (this.badRows.length < KEEP) this.badRows.push(row);
  }

  readonly addInserted = ({ accepted, duplicateLines }: FlushResult): void => {
    this.accepted += accepted;
    this.duplicateCount += duplicateLines.length;
    this.duplicateLines.push(...duplicateLines.slice(0, KEEP - this.duplicateLines.length));
  };

  build(rest: Omit<ImportReport, 'rowsRead' | 'accepted' | 'duplicates' | 'badRows' | 'withoutSubject'>): ImportReport {
    return {
      ...rest,
      withoutSubject: this.withoutSubject,
      rowsRead: this.rowsRead,
      accepted: this.accepted,
      duplicates: { count: this.duplicateCount, lines: this.duplicateLines },
      badRows: { count: this.badCount, rows: this.badRows },
    };
  }
}
