/**
 * The printable budget report: one self-contained HTML page (no scripts, no external
 * resources) with the totals, the ε(δ) curve, every entry and the chain head. The UI downloads
 * it, or prints it (Save as PDF) from a hidden same-origin frame; `veil ledger report` writes it
 * to a file.
 */
import { APP_NAME, APP_VERSION } from '../../shared/appInfo';
import { epsilonNumber, type EpsilonBound, type LedgerSummary } from '../../shared/api/ledger';
import { describeEvent } from '../../../core/accounting/describeEvent';
import type { LedgerEntryView } from './entryViews';
import { svgCurve } from './svgCurve';

export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const num = (x: EpsilonBound | null) => (x === null ? '—' : Number.isFinite(epsilonNumber(x)) ? epsilonNumber(x).toPrecision(4) : '∞');

const STYLE = `body{font-family:system-ui,sans-serif;margin:2rem;color:#111}h1{font-size:1.5rem}h2{font-size:1.1rem;margin-top:1.6rem}
table{border-collapse:collapse;font-size:.8rem;width:100%}th,td{border:1px solid #bbb;padding:.25rem .4rem;text-align:left;vertical-align:top}
th{background:#eee}td.num{text-align:right;font-variant-numeric:tabular-nums}code{font-size:.8rem;word-break:break-all}
.totals td:first-child{width:16rem}.orphaned{color:#b71c1c}@media print{body{margin:0}tr{break-inside:avoid}}`;

function entryRow(e: LedgerEntryView): string {
  const what =
    e.type === 'budget'
      ? `cap ε=${num(e.epsilonCap)}, δ=${e.delta!.toExponential(2)}`
      : e.type === 'reserve'
        ? e.event ? describeEvent(e.event) : '(unreadable event)'
        : `commits entry ${e.reservationId}${e.outputHash ? `, output ${e.outputHash.slice(0, 12)}…` : ''}`;
  const cells = [
    `${e.id} (#${e.seq})`,
    e.createdAt,
    e.type,
    e.statusText ?? '',
    what,
    e.purpose,
    num(e.spentEpsilon),
    e.actor,
    e.jobId ?? '',
    `<code>${e.entryHash.slice(0, 16)}…</code>`,
  ];
  const escaped = cells.map((c, i) => (i === 9 ? c : escapeHtml(c)));
  return `<tr class="${e.status ?? ''}">${escaped.map((c, i) => `<td${i === 6 ? ' class="num"' : ''}>${c}</td>`).join('')}</tr>`;
}

/** The dataset's newest anchored head and the anchor file, printed so that a compliance officer can keep them. */
export interface ReportAnchor {
  file: string;
  heads: readonly { seq: number; hash: string; at: string }[];
}

export function budgetReportHtml(summary: LedgerSummary, entries: readonly LedgerEntryView[], generatedAt = new Date(), anchor?: ReportAnchor): string {
  const { budget, spent, reservations: r } = summary;
  const name = escapeHtml(summary.dataset.name);
  const totals: [string, string][] = [
    ['ε cap', num(budget?.epsilon ?? null)],
    ['δ', budget ? budget.delta.toExponential(2) : '—'],
    [`ε spent (${spent.accountant.toUpperCase()}: upper bound)`, num(spent.epsilon.upper)],
    ['ε spent (lower bound, estimate)', `${num(spent.epsilon.lower)}, ${num(spent.epsilon.estimate)}`],
    ['ε spent (RDP cross-check)', num(spent.rdp?.upper ?? null)],
    ['ε remaining (cap − spent)', num(summary.remainingEpsilon)],
    ...(spent.epsilon.upper === 'Infinity' ? [['', '∞: no finite ε bounds the spend at this δ (a release was charged with a larger δ₀); further releases are refused'] as [string, string]] : []),
    ['releases', `${r.committed} committed, ${r.reserved} in progress, ${r.orphaned} counted as spent (job did not finish)`],
  ];
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Privacy budget report — ${name}</title><style>${STYLE}</style></head>
<body>
<h1>Privacy budget report: ${name}</h1>
<p>Generated ${escapeHtml(generatedAt.toISOString())} by ${APP_NAME} ${APP_VERSION}. Privacy unit and neighbouring relation: as recorded in each event (default: add/remove one record).</p>
<h2>Totals</h2>
<table class="totals"><tbody>${totals.map(([k, v]) => `<tr><td>${escapeHtml(k)}</td><td>${escapeHtml(v)}</td></tr>`).join('')}</tbody></table>
<p>ε is not additive: the spend is the accountant's bound for the composition of every reserved release, committed or not.</p>
<h2>Privacy curve ε(δ)</h2>
${budget ? svgCurve(summary.curve, { cap: budget.epsilon, delta: budget.delta }) : '<p>No budget set.</p>'}
<h2>Entries (${summary.entries})</h2>
<table><thead><tr><th>entry (#)</th><th>time (UTC)</th><th>type</th><th>status</th><th>what</th><th>purpose</th><th>ε spent after</th><th>actor</th><th>job</th><th>entry hash</th></tr></thead>
<tbody>${entries.map(entryRow).join('\n')}</tbody></table>
<h2>Chain head</h2>
<p>Chain position #${summary.head.seq}: <code>${summary.head.hash}</code></p>
<p>Keep this value apart from the database. <code>veil ledger verify --expect-head &lt;hash&gt;</code> then proves that the entries up to it are unchanged; the hash chain alone cannot detect a ledger rewritten from scratch.</p>
${anchorSection(anchor)}
</body></html>
`;
}

function anchorSection(anchor: ReportAnchor | undefined): string {
  if (!anchor) return '';
  const head = anchor.heads.at(-1);
  const line = head ? `position #${head.seq}: <code>${escapeHtml(head.hash)}</code>, anchored ${escapeHtml(head.at)}` : 'no entry anchored yet';
  return `<h2>Ledger anchor</h2>
<p>Newest anchored head of this dataset in <code>${escapeHtml(anchor.file)}</code> (an append-only file beside the database, written on every ledger entry and checked on every reservation and verification): ${line}.</p>
<p>Keep a copy (<code>veil ledger anchor --out FILE</code>) apart from this computer; <code>veil ledger verify --anchor FILE</code> then catches entries removed from the end or a chain rewritten since, even if the database and the local anchor were both rewritten.</p>`;
}
