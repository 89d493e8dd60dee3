/**
 * Child process of the jobs-across-processes test: runs COUNT short jobs one after another
 * in DATA_DIR, each result naming it, and prints their ids as a JSON array.
 * Usage: node --import tsx jobChurnChild.ts DATA_DIR COUNT
 */
import { JobManager } from '../../../electron/services/jobs/jobManager';

const [dataDir, count] = process.argv.slice(2);
const jobs = new JobManager(dataDir, () => undefined);
const ids: string[] = [];
for (let i = 0; i < Number(count); i++) {
  const id = await jobs.start('churn', async () => ({ pid: process.pid, n: i }));
  await jobs.wait(id);
  ids.push(id);
}
await jobs.shutdown();
process.stdout.write(JSON.stringify(ids));
