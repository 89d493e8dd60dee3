/** Timing helpers for benchmarks: medians of repeated runs (machines here are noisy). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Run `fn` `repeats` times and return the per-run seconds and their median. */
export async function timeRuns(repeats: number, fn: () => unknown): Promise<{ median: number; runs: number[] }> {
  const runs: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const start = performance.now();
    await fn();
    runs.push((performance.now() - start) / 1000);
  }
  return { median: median(runs), runs };
}

/** CPU seconds (user + system of this process, all threads) and wall seconds of one call. */
export async function measured<T>(fn: () => Promise<T> | T): Promise<{ cpu: number; wall: number; value: T }> {
  const [start, cpu] = [performance.now(), process.cpuUsage()];
  const value = await fn();
  const { user, system } = process.cpuUsage(cpu);
  return { cpu: (user + system) / 1e6, wall: (performance.now() - start) / 1000, value };
}

/** Mean, sample standard deviation (0 for one value), least and greatest of repeated measurements. */
export function spread(values: readonly number[]): { mean: number; sd: number; min: number; max: number } {
  if (values.length === 0) throw new RangeError('spread: no values');
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const sd = values.length < 2 ? 0 : Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / (values.length - 1));
  return { mean, sd, min: Math.min(...values), max: Math.max(...values) };
}
