/**
 * The audit report: printable, self-contained HTML (no scripts, no external resources; an
 * inline SVG ROC curve per target with the random-guess diagonal) or JSON for pipelines. It
 * states targets, attacks, sample sizes, metrics with intervals, the empirical ε lower bound
 * and the accounted ε, and that the report is computed from private data (not a DP release).
 */
import { APP_NAME, APP_VERSION } from '../../shared/appInfo';
import type { AuditRunDto, AuditTargetResult } from '../../shared/api/audit';
import { promptFitNote } from '../../shared/auditPromptFit';
import { escapeHtml } from '../ledger/budgetReport';

export const REPORT_NOTICE =
  'Computed from private records on this machine. Not a differentially private release and not charged to the privacy ledger: share it as you would the data.';

const f = (x: number) => x.toFixed(3);
const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
const eps = (x: number | null) => (x === null ? '∞ (not private)' : f(x));

const SIZE = 240;
const PAD = 30;
const COLOURS = ['#1565c0', '#c62828', '#2e7d32', '#6a1b9a'];

function rocSvg(target: AuditTargetResult): string {
  const x = (v: number) => (PAD + v * (SIZE - PAD - 8)).toFixed(1);
  const y = (v: number) => (SIZE - PAD - v * (SIZE - PAD - 8)).toFixed(1);
  const lines = target.scores.map((s, i) => `<polyline fill="none" stroke="${COLOURS[i % COLOURS.length]}" stroke-width="1.5" points="${s.metrics.curve.map((p) => `${x(p.fpr)},${y(p.tpr)}`).join(' ')}"/>`);
  const legend = target.scores.map((s, i) => `<text x="${PAD + 6}" y="${14 + 12 * i}" fill="${COLOURS[i % COLOURS.length]}">${escapeHtml(s.score)} (AUROC ${f(s.metrics.auroc)})</text>`);
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${SIZE} ${SIZE}" width="${SIZE}" height="${SIZE}" font-size="9" font-family="sans-serif" role="img" aria-label="ROC curve">
<rect x="${PAD}" y="8" width="${SIZE - PAD - 8}" height="${SIZE - PAD - 8}" fill="none" stroke="#444"/>
<line x1="${x(0)}" y1="${y(0)}" x2="${x(1)}" y2="${y(1)}" stroke="#999" stroke-dasharray="4 3"/>
${lines.join('\n')}
${legend.join('\n')}
<text x="${SIZE / 2}" y="${SIZE - 6}" text-anchor="middle">false positive rate</text>
<text x="10" y="${SIZE / 2}" transform="rotate(-90 10 ${SIZE / 2})" text-anchor="middle">true positive rate</text>
</svg>`;
}

/** An empirical lower bound above the accountant's upper bound: something is broken (never expected). */
export const exceeds = (t: AuditTargetResult) => t.canary !== null && t.accountedEpsilon !== null && t.canary.epsilonLower > t.accountedEpsilon;

function targetSection(t: AuditTargetResult): string {
  const rows = t.scores.map((s) => {
    const m = s.metrics;
    const cells = [s.attack, s.score, `${m.members} / ${m.nonMembers}`, f(m.auroc), `${f(m.aurocInterval.lower)} – ${f(m.aurocInterval.upper)} (${pct(m.aurocInterval.level)})`, pct(m.tprAt1), pct(m.tprAt01), f(m.advantage)];
    return `<tr>${cells.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`;
  });
  const canary = t.canary
    ? `<p>One-run canary audit (Steinke, Nasr &amp; Jagielski 2023, Thm 5.2): ${t.canary.m} canaries, ${t.canary.guesses} guesses, ${t.canary.correct} correct (score ${escapeHtml(t.canary.score)}; ${escapeHtml(t.canary.mechanism)}). <strong>Empirical ε ≥ ${f(t.canary.epsilonLower)}</strong> at ${pct(t.canary.confidence)} confidence, δ = ${t.canary.delta.toExponential(2)}; accounted ε ≤ ${eps(t.accountedEpsilon)}.${exceeds(t) ? ' <strong>The lower bound exceeds the accounted ε: the mechanism or its accounting is wrong — do not release with it.</strong>' : ''}</p>`
    : `<p>Canary audit: ${escapeHtml(t.canarySkipped ?? 'not run')}.</p>`;
  const skipped = t.skipped.length ? `<p>Skipped: ${t.skipped.map((s) => `${s.attack} (${escapeHtml(s.reason)})`).join('; ')}.</p>` : '';
  const fit = promptFitNote(t);
  return `<h2>${escapeHtml(t.name)}</h2>
<p>Accounted ε: ${eps(t.accountedEpsilon)}${t.delta === null ? '' : `, δ = ${t.delta.toExponential(2)}`}. Design: ${escapeHtml(t.design)}.</p>
<table><tr><th>attack</th><th>score</th><th>members / non-members</th><th>AUROC</th><th>bootstrap interval</th><th>TPR @ 1 % FPR</th><th>TPR @ 0.1 % FPR</th><th>advantage</th></tr>
${rows.join('\n')}</table>
${fit ? `<p>${escapeHtml(fit)}</p>` : ''}${skipped}${canary}
${t.scores.length ? rocSvg(t) : ''}`;
}

const STYLE = `body{font-family:system-ui,sans-serif;margin:2rem;color:#111}h1{font-size:1.5rem}h2{font-size:1.1rem;margin-top:1.6rem}
table{border-collapse:collapse;font-size:.8rem}th,td{border:1px solid #bbb;padding:.25rem .4rem;text-align:left}th{background:#eee}
.notice{border:1px solid #c62828;padding:.5rem}@media print{body{margin:0}}`;

export function auditReportHtml(run: AuditRunDto, generatedAt = new Date()): string {
  const r = run.request;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Membership-inference audit ${run.id} — ${escapeHtml(run.dataset)}</title><style>${STYLE}</style></head>
<body>
<h1>Membership-inference audit ${run.id} — ${escapeHtml(run.dataset)}</h1>
<p class="notice">${REPORT_NOTICE}</p>
<p>Started ${escapeHtml(run.createdAt)}; status ${run.status}; model ${escapeHtml(run.result?.model ?? '—')}. Attacks: ${r.attacks.join(', ')}; ${r.members} members per target, ${r.balance === 'balanced' ? '1:1' : '1:4'} members to non-members; ${r.canaries} canaries.</p>
${run.result ? run.result.targets.map(targetSection).join('\n') : `<p>No results: ${escapeHtml(run.error ?? run.status)}.</p>`}
<p><small>${APP_NAME} ${APP_VERSION}, generated ${generatedAt.toISOString()}.</small></p>
</body></html>
`;
}

export function auditReportJson(run: AuditRunDto): string {
  return `${JSON.stringify({ format: 'veil.audit-report/v1', notice: REPORT_NOTICE, appVersion: APP_VERSION, ...run }, null, 2)}\n`;
}
