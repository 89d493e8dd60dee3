/**
 * Child process of the import atomicity test: imports FILE into the dataset "big" of
 * DATA_DIR and prints each job.progress event as a JSON line, so the parent can SIGKILL
 * it at a chosen moment. Usage: node --import tsx importKillChild.ts DATA_DIR FILE
 */
import { callMethod } from '../../../electron/services/api';
import { ServiceContext } from '../../../electron/services/context';

const [dataDir, path] = process.argv.slice(2);
const ctx = new ServiceContext(dataDir, 'cli');
ctx.subscribe((event, payload) => {
  if (event === 'job.progress') process.stdout.write(`${JSON.stringify(payload)}\n`);
});
const { jobId } = await callMethod(ctx, 'vault.import', { dataset: 'big', path });
const job = await ctx.jobs.wait(jobId);
process.stdout.write(`${JSON.stringify({ status: job.status })}\n`);
await ctx.close();
