/**
 * Ledger exports. JSON carries every stored column (the JSON columns as their exact
 * stored text), so the chain can be re-verified offline from the export alone; CSV is for
 * spreadsheets (text cells that a spreadsheet would run as a formula are prefixed with ').
 */
import type { LedgerSummary } from '../../shared/api/ledger';
import type { LedgerEntryView } from './entryViews';
import { GENESIS_HASH, LEDGER_SCHEME } from './hashChain';

const LEDGER_EXPORT_FORMAT = 'veil.ledger-export/v1';

const CSV_COLUMNS = [
  'id', 'seq', 'type', 'status', 'createdAt', 'actor', 'purpose', 'jobId', 'eventJson', 'parametersJson', 'epsilonCap',
  'delta', 'spentEpsilon', 'accountant', 'reservationId', 'outputHash', 'prevHash', 'entryHash',
] as const satisfies readonly (keyof LedgerEntryView)[];
const FREE_TEXT = new Set<string>(['actor', 'purpose', 'jobId']);

function csvCell(column: string, value: unknown): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (FREE_TEXT.has(column) && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function ledgerCsv(entries: readonly LedgerEntryView[]): string {
  const rows = entries.map((e) => CSV_COLUMNS.map((c) => csvCell(c, e[c])).join(','));
  return `${[CSV_COLUMNS.join(','), ...rows].join('\r\n')}\r\n`;
}

export function ledgerJson(summary: LedgerSummary, entries: readonly LedgerEntryView[], exportedAt = new Date()): string {
  const document = {
    format: LEDGER_EXPORT_FORMAT,
    scheme: LEDGER_SCHEME,
    genesisHash: GENESIS_HASH,
    exportedAt: exportedAt.toISOString(),
    dataset: summary.dataset,
    // N is the vault's exact private count: shown to the analyst, never in a file that leaves the machine.
    budget: summary.budget && { ...summary.budget, privacyUnits: undefined },
    spent: summary.spent,
    curve: summary.curve,
    head: summary.head,
    entries,
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}

export function exportFileName(summary: LedgerSummary, extension: string, kind = 'ledger'): string {
  const safe = summary.dataset.name.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 64);
  return `veil-${kind}-${safe}-${summary.head.hash.slice(0, 8)}.${extension}`;
}
