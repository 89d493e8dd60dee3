/**
 * What the job commands of the CLI (`veil synth`, `veil ask`, `veil audit`, `veil augment`)
 * share: switching the backend for one run, following a job's progress, and Ctrl+C handling
 * that cancels the job under way (its reservation stays charged).
 */
import { resolve } from 'node:path';
import { callMethod } from '../services/api';
import type { ServiceContext } from '../services/context';
import { CliError, numberOption } from './output';
import { progressLine } from './progressLine';

export interface ModelOptions {
  model: string;
  remoteModel?: string;
  apiKeyEnv: string;
  threads?: string;
}

/** Switch this run's backend, as `veil model try --model` does: reference, a GGUF file, or a server URL. */
export async function useModel(ctx: ServiceContext, opts: ModelOptions, teachers: number | undefined, follow: (jobId: string) => void): Promise<void> {
  if (opts.model === 'reference') {
    await callMethod(ctx, 'model.useReference', {});
  } else if (/^https?:\/\//i.test(opts.model)) {
    if (!opts.remoteModel) throw new CliError('--model URL needs --remote-model NAME (the model on that server)', 2);
    await callMethod(ctx, 'model.useRemote', { baseUrl: opts.model, model: opts.remoteModel, apiKey: process.env[opts.apiKeyEnv] || undefined });
  } else {
    const sequences = Math.min(64, teachers ?? 10);
    const { jobId } = await callMethod(ctx, 'model.loadGguf', { path: resolve(opts.model), threads: numberOption('--threads', opts.threads), sequences });
    follow(jobId);
    const job = await ctx.jobs.wait(jobId);
    if (job.status === 'cancelled') return; // Ctrl+C: the caller stops before reserving anything
    if (job.status !== 'succeeded') throw new CliError(`could not load ${opts.model}: ${job.error ?? job.status}`);
  }
}

/**
 * Ctrl+C (SIGINT) while a `veil` job command runs (synth, ask): the first one cancels what is under way — the
 * model load, or the synthesis job, whose reserved budget stays charged — and the command
 * ends with one line and exit 130; a second one ends the process at once.
 */
export function interruptible(ctx: ServiceContext) {
  const state = { interrupted: false, jobId: undefined as string | undefined };
  const onSigint = () => {
    if (state.interrupted) process.exit(130);
    state.interrupted = true;
    if (state.jobId) ctx.jobs.cancel(state.jobId);
  };
  process.on('SIGINT', onSigint);
  return {
    state,
    /** Follow this job: cancelled at once if Ctrl+C came while it was being started. */
    follow(jobId: string) {
      state.jobId = jobId;
      if (state.interrupted) ctx.jobs.cancel(jobId);
    },
    /** Stop here if Ctrl+C came before anything was reserved. */
    checkpoint() {
      if (state.interrupted) throw new CliError('cancelled before anything was reserved', 130);
    },
    dispose: () => process.off('SIGINT', onSigint),
  };
}


/**
 * Waits for a job a command started, showing its progress on stderr (unless `quiet`) and
 * cancelling it on Ctrl+C; `what` names it in the errors (a cancelled job exits 130).
 */
export async function followJob(ctx: ServiceContext, jobId: string, what: string, quiet = false): Promise<void> {
  const onSigint = () => ctx.jobs.cancel(jobId);
  process.on('SIGINT', onSigint);
  const progress = progressLine();
  const off = ctx.subscribe((event, payload) => {
    const p = payload as { jobId?: string; stage?: string; done?: number; total?: number };
    if (event === 'job.progress' && p.jobId === jobId && !quiet) progress.update(p.stage ?? '', `${p.stage}: ${p.done}/${p.total}`);
  });
  try {
    const job = await ctx.jobs.wait(jobId);
    progress.end();
    if (job.status === 'cancelled') throw new CliError(`${what} cancelled`, 130);
    if (job.status !== 'succeeded') throw new CliError(`${what} ${job.status}: ${job.error ?? ''}`);
  } finally {
    off();
    process.off('SIGINT', onSigint);
  }
}
