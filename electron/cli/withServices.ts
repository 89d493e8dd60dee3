/** Runs a CLI command's work with a service context on the data directory, closing it afterwards. */
import { ServiceContext } from '../services/context';
import { ensureDataDir } from '../services/dataDir';

export async function withServices<T>(dataDir: string, work: (ctx: ServiceContext) => Promise<T>): Promise<T> {
  const ctx = new ServiceContext(ensureDataDir(dataDir), 'cli');
  try {
    return await work(ctx);
  } finally {
    await ctx.close();
  }
}
