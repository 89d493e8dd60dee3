/** Handlers for budget.* and ledger.* methods, over the context's ledger service. */
import type { ServiceContext } from '../context';
import type { HandlerMap } from '../handler';
import { budgetReportHtml } from './budgetReport';
import { exportFileName, ledgerCsv, ledgerJson } from './exportLedger';
import { getLedgerService } from './ledgerService';

type LedgerMethod =
  | 'budget.get' | 'budget.set' | 'ledger.summary' | 'ledger.entries' | 'ledger.record'
  | 'ledger.remaining' | 'ledger.verify' | 'ledger.report' | 'ledger.export' | 'ledger.anchor';

const ledger = (ctx: ServiceContext) => getLedgerService(ctx);

export const ledgerHandlers: HandlerMap<LedgerMethod> = {
  'budget.get': async ({ dataset }, ctx) => (await ledger(ctx)).budget(dataset),
  'budget.set': async ({ dataset, ...change }, ctx) => (await ledger(ctx)).setBudget(dataset, change),
  'ledger.summary': async ({ dataset }, ctx) => (await ledger(ctx)).summary(dataset),
  'ledger.entries': async ({ dataset }, ctx) => (await ledger(ctx)).entries(dataset),
  'ledger.record': async ({ dataset, event, purpose, parameters }, ctx) => (await ledger(ctx)).record(dataset, event, { purpose, parameters }),
  'ledger.remaining': async ({ dataset, event }, ctx) => (await ledger(ctx)).remainingCount(dataset, event),
  'ledger.verify': async ({ dataset, expectedHead, anchorCopy }, ctx) => (await ledger(ctx)).verify(dataset, { expectedHead, anchorCopy }),
  'ledger.anchor': async ({ dataset }, ctx) => (await ledger(ctx)).anchor(dataset),
  'ledger.report': async ({ dataset }, ctx) => {
    const service = await ledger(ctx);
    const { summary, entries } = await service.statement(dataset);
    const anchor = await service.anchor(summary.dataset.id);
    return { html: budgetReportHtml(summary, entries, new Date(), anchor), fileName: exportFileName(summary, 'html', 'budget-report'), head: summary.head.hash };
  },
  'ledger.export': async ({ dataset, format }, ctx) => {
    const { summary, entries } = await (await ledger(ctx)).statement(dataset);
    return format === 'json'
      ? { content: ledgerJson(summary, entries), fileName: exportFileName(summary, 'json'), mimeType: 'application/json' }
      : { content: ledgerCsv(entries), fileName: exportFileName(summary, 'csv'), mimeType: 'text/csv' };
  },
};
