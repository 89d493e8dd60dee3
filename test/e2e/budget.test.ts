/**
 * The Budget page in Chromium through the real bridge, on the sample e-mail dataset: set a
 * budget, plan a workload (type a value, move a slider with the keyboard) and see the
 * numbers and charts follow, save the plan, record an external release and watch the
 * remaining budget fall, verify the ledger, download the printable report, and print it
 * (print() stubbed: no dialog opens). Failed API calls and console errors — CSP violations
 * included — fail the test (harness).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, failOnProblems, startApp, valueOf, type AppSession } from './harness';

const SLOW = { timeout: 30_000, interval: 200 };
const DATASET = 'Mail sample';

interface Printed {
  body: string;
  margin: string;
  svg: boolean;
}

/**
 * Init script: print() on a frame's window records what the printed document shows (its
 * text, its body margin — set by the report's inline style — and whether it has the SVG
 * curve), then fires afterprint, instead of opening the print dialog.
 */
function recordFramePrinting() {
  if (window !== window.top) return;
  const printed: Printed[] = [];
  (window as unknown as { printed: Printed[] }).printed = printed;
  const contentWindow = Object.getOwnPropertyDescriptor(HTMLIFrameElement.prototype, 'contentWindow')!.get!;
  Object.defineProperty(HTMLIFrameElement.prototype, 'contentWindow', {
    configurable: true,
    get(this: HTMLIFrameElement) {
      const view = contentWindow.call(this) as Window | null;
      if (view) {
        view.print = () => {
          const { body } = view.document;
          printed.push({ body: body.innerText, margin: view.getComputedStyle(body).marginTop, svg: body.querySelector('svg polyline') !== null });
          view.dispatchEvent(new Event('afterprint'));
        };
      }
      return view;
    },
  });
}

describe.runIf(chromiumAvailable())('Budget page (Chromium, browser mode)', () => {
  let app: AppSession;
  const section = (name: string) => app.page.getByRole('region', { name, exact: true });
  const planResult = () => section('Planner').getByRole('table', { name: 'plan result' });
  const budgetTable = () => section('Budget').getByRole('table', { name: 'budget' });
  const planned = (row: string) => valueOf(planResult(), row).textContent();
  /** The calibrated Gaussian σ of the plan shown. */
  const sigma = async () => Number(/^Gaussian σ = ([\d.]+)/.exec((await planned('Calibrated noise')) ?? '')?.[1]);
  const remainingEpsilon = async () => Number(/Remaining ε \(cap − spent\)\s*([\d.]+)/.exec((await budgetTable().textContent()) ?? '')?.[1]);

  beforeAll(async () => {
    app = await startApp();
    await app.page.addInitScript(recordFramePrinting);
    await app.call('vault.createSample', { name: DATASET });
    await app.open('/budget');
  }, 120_000);
  failOnProblems(() => app);
  afterAll(async () => app?.close());

  it('sets a budget through the form', async () => {
    await expect.poll(() => section('Budget').textContent(), SLOW).toMatch(/No budget is set for Mail sample/);
    const form = section('Set a budget');
    // N is the services' count (budget.privacyUnits), in once the page has asked for it.
    await expect.poll(() => form.textContent(), SLOW).toMatch(/empty: δ = [\d.]+e-\d+ = min\(1\/\(10·N\), 1e-5\) \(N = [\d,]+ records in the private split/);
    await form.getByLabel('ε cap').fill('6');
    await form.getByLabel('δ').fill('1e-6');
    await form.getByLabel('Purpose').fill('quarterly spam study');
    await form.getByRole('button', { name: 'Set budget' }).click();
    await expect.poll(() => section('Budget').getByTestId('budget-spent').textContent(), SLOW).toBe('ε spent 0 of 6 at δ = 1.0e-6');
    expect(await remainingEpsilon()).toBe(6);
    await expect.poll(() => section('Ledger').getByRole('table', { name: 'ledger entries' }).textContent(), SLOW).toMatch(/budget: cap ε = 6, δ = 1\.0e-6.*quarterly spam study/);
  });

  it('plans a workload: numbers and charts follow the inputs', async () => {
    const planner = section('Planner');
    await expect.poll(() => planResult().textContent(), SLOW).toMatch(/Gaussian σ = /);
    // The details (plan.details) follow the price: both sampling modes, then the charts.
    await expect.poll(() => planned('Sampling modes'), SLOW).toMatch(/per-token: σ = [\d.]+ for the same ε.*per-demonstration: σ = [\d.]+ for the same ε/s);
    await expect.poll(() => section('Budget').getByRole('table', { name: 'budget' }).textContent(), SLOW).toMatch(/more synthetic prompts? of this kind/);
    expect(await planner.getByRole('figure', { name: 'Privacy curve ε(δ) of the plan' }).locator('svg path').count()).toBeGreaterThan(0);

    await planner.getByRole('button', { name: 'Private answering' }).click();
    await planner.getByRole('textbox', { name: 'Planned ε', exact: true }).fill('1');
    await planner.getByRole('textbox', { name: 'Queries', exact: true }).fill('50');
    await expect.poll(() => planResult().textContent(), SLOW).toMatch(/ε of the plan(1|0\.99\d*) at δ = 1\.0e-6/);
    await expect.poll(() => planResult().textContent(), SLOW).toMatch(/more private answers of this kind \([\d,]+ × 50 queries\)/);
    const queriesFigure = planner.getByRole('figure', { name: 'ε against the number of queries' });
    await expect.poll(() => queriesFigure.textContent(), SLOW).toMatch(/Break-even at [\d,]+ quer/);
    const sigmaBefore = await sigma();
    expect(sigmaBefore).toBeGreaterThan(0);
    const chartBefore = await queriesFigure.textContent();

    // A larger ensemble reads more records per query (q = ensemble × shots / N), so the same ε
    // needs more noise: σ grows while ε stays at the planned 1.
    const slider = planner.getByRole('slider', { name: /^Ensemble size/ });
    await slider.focus();
    for (let i = 0; i < 5; i++) await slider.press('ArrowRight');
    const ensembleField = planner.getByRole('textbox', { name: 'Ensemble size', exact: true });
    await expect.poll(() => ensembleField.inputValue(), SLOW).not.toBe('10');
    const ensemble = Number(await ensembleField.inputValue());
    expect(ensemble).toBeGreaterThan(10);
    const shots = Number(await planner.getByRole('textbox', { name: 'Shots', exact: true }).inputValue());
    const units = Number((await planned('Privacy units N'))?.replaceAll(',', ''));
    // Each key press is a new request: wait for the plan of the last one (an intermediate
    // ensemble size can be on screen meanwhile), then compare.
    const q = async () => Number(/q = ([\d.]+)/.exec((await planned('Sampling rates')) ?? '')?.[1]);
    await expect.poll(async () => Math.abs((await q()) - (ensemble * shots) / units), SLOW).toBeLessThan(5e-4);
    expect(await sigma()).toBeGreaterThan(sigmaBefore);
    expect(await planned('ε of the plan')).toMatch(/^(1|0\.99\d*) at δ = 1\.0e-6/);
    await expect.poll(() => queriesFigure.textContent(), SLOW).not.toBe(chartBefore);
    expect(await planResult().textContent()).toMatch(/Computed in\d+ ms/);
    await expect.poll(() => section('Budget').getByRole('table', { name: 'budget' }).textContent(), SLOW).toMatch(/more private answers of this kind/);
  });

  it('rejects a typed value out of range inline and keeps the last plan', async () => {
    const planner = section('Planner');
    const queries = planner.getByRole('textbox', { name: 'Queries', exact: true });
    await queries.fill('5000000');
    await expect.poll(() => planner.textContent(), SLOW).toMatch(/a whole number from 1 to 1,000,000/);
    expect(await planResult().textContent()).toMatch(/ε of the plan(1|0\.99\d*) at/);
    await queries.fill('50');
  });

  it('saves the plan and lists it', async () => {
    const planner = section('Planner');
    await planner.getByLabel('Plan name').fill('weekly answers');
    await planner.getByRole('button', { name: 'Save plan' }).click();
    const saved = planner.getByRole('table', { name: 'saved plans' });
    await expect.poll(() => saved.textContent(), SLOW).toMatch(/weekly answers.*answering: 50 queries, vote/);
    const plans = await app.call('plan.list', { dataset: DATASET });
    expect(plans.map((p) => p.name)).toEqual(['weekly answers']);
  });

  it('records an external release; the remaining budget falls', async () => {
    const before = await remainingEpsilon();
    await section('Ledger').getByRole('button', { name: 'Record external release…' }).click();
    const dialog = app.page.getByRole('dialog', { name: `Record an external release on ${DATASET}` });
    await dialog.getByRole('button', { name: 'Record release' }).click();
    await expect.poll(() => dialog.textContent(), SLOW).toMatch(/say what was released/);
    await dialog.getByLabel('Purpose').fill('count of spam published in the annual report');
    await dialog.getByLabel('Noise σ').fill('3');
    await expect.poll(() => dialog.getByLabel('event to charge').textContent(), SLOW).toBe('Charges: Gaussian σ=3, Δ=1');
    await dialog.getByRole('button', { name: 'Record release' }).click();
    await expect.poll(() => dialog.count(), SLOW).toBe(0);
    await expect.poll(remainingEpsilon, SLOW).toBeLessThan(before);
    const rows = section('Ledger').getByRole('table', { name: 'ledger entries' }).getByRole('row');
    await expect.poll(() => rows.count(), SLOW).toBe(4);
    expect(await rows.nth(2).textContent()).toMatch(/reserve.*committed: released.*Gaussian σ=3, Δ=1.*annual report/);
    expect((await app.call('ledger.summary', { dataset: DATASET })).reservations.committed).toBe(1);
  });

  it('verifies the ledger and downloads the printable report and the CSV', async () => {
    const ledger = section('Ledger');
    await ledger.getByRole('button', { name: 'Verify' }).click();
    await expect.poll(() => ledger.getByRole('alert').first().textContent(), SLOW).toMatch(/The ledger verifies: 3 entries/);

    const report = app.page.waitForEvent('download');
    await ledger.getByRole('button', { name: 'Download printable report' }).click();
    const html = readFileSync((await (await report).path())!, 'utf8');
    expect(html).toMatch(/<html/i);
    expect(html).toContain('annual report');
    const { head } = await app.call('ledger.report', { dataset: DATASET });
    expect(html).toContain(head);

    const csv = app.page.waitForEvent('download');
    await ledger.getByRole('button', { name: 'Export CSV' }).click();
    expect((await csv).suggestedFilename()).toMatch(/\.csv$/);
  });

  it('prints the report from a hidden frame: entries, totals, curve and chain head, styled under the CSP', async () => {
    const printed = () => app.page.evaluate(() => (window as unknown as { printed: Printed[] }).printed);
    expect(await printed()).toEqual([]);
    const button = section('Ledger').getByRole('button', { name: 'Print / save as PDF…' });
    await button.focus();
    await button.press('Enter');
    await expect.poll(async () => (await printed()).length, SLOW).toBe(1);
    const [{ body, margin, svg }] = await printed();
    const { head } = await app.call('ledger.report', { dataset: DATASET });
    expect(body).toContain(`Privacy budget report: ${DATASET}`);
    expect(body).toContain(head);
    expect(body).toMatch(/ε remaining \(cap − spent\)/);
    expect(body).toMatch(/reserve.*count of spam published in the annual report/);
    expect(body).toContain('quarterly spam study');
    expect(svg).toBe(true);
    expect(margin).toBe('32px');
    await expect.poll(() => app.page.locator('iframe').count(), SLOW).toBe(0);
  });

  it("shows the default δ of a subject-level dataset before a budget exists: N is its subjects, as the services count them", async () => {
    const clinic = await app.call('vault.createSample', { kind: 'clinic' });
    const { n: subjects } = await app.call('budget.privacyUnits', { dataset: clinic.name });
    await app.page.getByLabel('Dataset').click();
    await app.page.getByRole('option', { name: clinic.name }).click();
    const form = section('Set a budget');
    const hint = `empty: δ = 1e-5 = min(1/(10·N), 1e-5) (N = ${subjects} subjects in the private split`;
    await expect.poll(() => form.textContent(), SLOW).toContain(hint);
    expect(await form.textContent()).not.toMatch(/not known/);
  });
});
