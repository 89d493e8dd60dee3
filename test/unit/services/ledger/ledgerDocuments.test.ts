/** Exports and the printable report: escaping, CSV quoting, the inline SVG curve. */
import { describe, expect, it } from 'vitest';
import { gaussian, poissonSampled, composed } from '../../../../core/accounting/events';
import { budgetReportHtml } from '../../../../electron/services/ledger/budgetReport';
import { describeEvent } from '../../../../core/accounting/describeEvent';
import type { LedgerEntryView } from '../../../../electron/services/ledger/entryViews';
import { exportFileName, ledgerCsv, ledgerJson } from '../../../../electron/services/ledger/exportLedger';
import { svgCurve } from '../../../../electron/services/ledger/svgCurve';
import type { LedgerSummary } from '../../../../electron/shared/api/ledger';

const event = poissonSampled(0.01, composed(gaussian(2), 3));
const reserve: LedgerEntryView = {
  id: 2, datasetId: 1, seq: 2, type: 'reserve', eventJson: JSON.stringify(event), epsilonCap: null, delta: 1e-6,
  spentEpsilon: 0.25, accountant: 'pld', parametersJson: '{}', purpose: '=HYPERLINK("x") <b>, "quoted"', jobId: null,
  actor: 'a (cli)', createdAt: '2025-01-01T00:00:00.000Z', reservationId: null, outputHash: null, prevHash: 'p'.repeat(64),
  entryHash: 'e'.repeat(64), event, parameters: {}, status: 'orphaned', statusText: 'counted as spent: job did not finish', commitId: null,
};
const summary: LedgerSummary = {
  dataset: { id: 1, name: 'mail <&> box' },
  budget: { datasetId: 1, dataset: 'mail <&> box', epsilon: 1, delta: 1e-6, setAt: '2025-01-01T00:00:00.000Z', entryId: 1, privacyUnits: null },
  spent: { accountant: 'pld', epsilon: { lower: 0.2, estimate: 0.22, upper: 0.25 }, rdp: { lower: 0, estimate: 0.3, upper: 0.3 } },
  remainingEpsilon: 0.75,
  curve: [{ delta: 1e-8, epsilon: 0.4 }, { delta: 1e-7, epsilon: 0.3 }, { delta: 1e-6, epsilon: 0.25 }],
  reservations: { reserved: 0, committed: 0, orphaned: 1 },
  entries: 2,
  head: { seq: 2, hash: 'e'.repeat(64) },
};

describe('ledger documents', () => {
  it('describes events in one line', () => {
    expect(describeEvent(event)).toBe('Poisson q=0.01 of [3 × [Gaussian σ=2, Δ=1]]');
  });

  it('quotes CSV cells and defuses spreadsheet formulas in free text', () => {
    const [header, row] = ledgerCsv([reserve]).split('\r\n');
    expect(header.split(',')).toContain('entryHash');
    expect(row).toContain(`"'=HYPERLINK(""x"") <b>, ""quoted"""`);
    expect(row).toContain('orphaned');
  });

  it('exports JSON with the exact stored columns and the head', () => {
    const doc = JSON.parse(ledgerJson(summary, [reserve]));
    expect(doc).toMatchObject({ format: 'veil.ledger-export/v1', genesisHash: '0'.repeat(64), head: summary.head });
    expect(doc.entries[0].eventJson).toBe(reserve.eventJson);
    expect(exportFileName(summary, 'json')).toBe('veil-ledger-mail_box-eeeeeeee.json');
  });

  it('leaves the exact count of privacy units out of the JSON export (it would release N)', () => {
    const counted: LedgerSummary = { ...summary, budget: { ...summary.budget!, privacyUnits: 7919 } };
    const text = ledgerJson(counted, [reserve], new Date('2025-02-01T00:00:00Z')); // a fixed time: no digits by chance
    const doc = JSON.parse(text);
    expect(doc.budget).toMatchObject({ epsilon: 1, delta: 1e-6 });
    expect(doc.budget).not.toHaveProperty('privacyUnits');
    expect(text).not.toContain('7919');
  });

  it('writes a self-contained, escaped HTML report with the curve and the chain head', () => {
    const html = budgetReportHtml(summary, [reserve], new Date('2025-02-01T00:00:00Z'));
    expect(html).toContain('mail &#60;&#38;&#62; box');
    expect(html).not.toContain('<b>,');
    expect(html).toContain('<svg');
    expect(html).toContain('e'.repeat(64));
    expect(html).toContain('counted as spent: job did not finish');
    expect(html).not.toMatch(/<script|https?:\/\/(?!www\.w3\.org)/);
  });

  it('draws one point per finite curve value and the cap', () => {
    const svg = svgCurve([...summary.curve, { delta: 1e-9, epsilon: Infinity }], { cap: 1, delta: 1e-6 });
    expect(svg.match(/<circle/g)).toHaveLength(3);
    expect(svg).toContain('cap ε=1');
    expect(svgCurve([], { cap: 1, delta: 1e-6 })).toContain('No privacy spent');
    // δ ticks keep three digits: a dataset δ of 3.61e-6 is not labelled 4e-6.
    const ticks = svgCurve([{ delta: 3.61e-6, epsilon: 1 }, { delta: 3.61e-5, epsilon: 0.5 }], { cap: 2, delta: 3.61e-6 });
    expect(ticks).toContain('>3.61e-6<');
    expect(ticks).toContain('>3.61e-5<');
  });

  it('names the curve points without a finite ε ("Infinity": δ below a charge\'s δ₀) instead of drawing them', () => {
    const svg = svgCurve([{ delta: 1e-10, epsilon: 'Infinity' }, { delta: 1e-9, epsilon: 'Infinity' }, ...summary.curve], { cap: 1, delta: 1e-6 });
    expect(svg.match(/<circle/g)).toHaveLength(3);
    expect(svg).toMatch(/<\/svg>\n<p>No finite ε at δ = 1e-10, 1e-9 \(ε = ∞ there\)/);
    const none = svgCurve([{ delta: 1e-10, epsilon: 'Infinity' }], { cap: 1, delta: 1e-6 });
    expect(none).not.toContain('<svg');
    expect(none).toMatch(/^<p>No finite ε at δ = 1e-10 \(ε = ∞ there\): .* above that δ/);
    const infinite: LedgerSummary = { ...summary, spent: { accountant: 'pld', epsilon: { lower: 'Infinity', estimate: 'Infinity', upper: 'Infinity' }, rdp: null }, remainingEpsilon: 0 };
    const html = budgetReportHtml(infinite, [reserve]);
    expect(html).toContain('<td>∞</td>');
    expect(html).toContain('no finite ε bounds the spend at this δ');
    expect(JSON.parse(ledgerJson(infinite, [reserve])).spent.epsilon.upper).toBe('Infinity');
  });
});
