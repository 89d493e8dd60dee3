/**
 * Child process of the job tests: starts a job that never ends in DATA_DIR, prints its id
 * and stays alive until killed. Usage: node --import tsx jobOwnerChild.ts DATA_DIR
 */
import { JobManager } from '../../../../electron/services/jobs/jobManager';

const jobs = new JobManager(process.argv[2], () => undefined);
const id = await jobs.start('long', () => new Promise(() => undefined));
process.stdout.write(`${id}\n`);
setInterval(() => undefined, 1000);
