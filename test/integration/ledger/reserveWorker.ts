/**
 * Child process for the ledger tests: `reserveWorker.ts DATA_DIR COUNT EVENT_JSON [hold]`
 * fires COUNT concurrent reservations of EVENT on the dataset "d" and prints how many
 * succeeded as JSON. With "hold", it reserves once (with a job id) and then waits to be
 * killed — a crash between reserve and commit.
 */
import { ServiceContext } from '../../../electron/services/context';
import { ensureDataDir } from '../../../electron/services/dataDir';
import { BudgetExceededError } from '../../../electron/services/ledger/errors';
import { getLedgerService } from '../../../electron/services/ledger/ledgerService';

const [dataDir, count, eventJson, mode] = process.argv.slice(2);
const ctx = new ServiceContext(ensureDataDir(dataDir), 'cli');
const ledger = await getLedgerService(ctx);
const event = JSON.parse(eventJson);

if (mode === 'hold') {
  const entry = await ledger.reserve('d', event, { purpose: 'crash test', jobId: 'job-that-crashes' });
  process.stdout.write(`${JSON.stringify({ reserved: entry.id })}\n`);
  setInterval(() => undefined, 1000);
} else {
  const results = await Promise.allSettled(Array.from({ length: Number(count) }, () => ledger.reserve('d', event, { purpose: 'concurrency test' })));
  const refused = results.filter((r) => r.status === 'rejected' && r.reason instanceof BudgetExceededError).length;
  const failed = results.filter((r) => r.status === 'rejected' && !(r.reason instanceof BudgetExceededError));
  for (const f of failed) process.stderr.write(`${(f as PromiseRejectedResult).reason}\n`);
  process.stdout.write(`${JSON.stringify({ succeeded: results.filter((r) => r.status === 'fulfilled').length, refused, failed: failed.length })}\n`);
  await ctx.close();
}
