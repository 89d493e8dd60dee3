/** model.* API methods through callMethod: status, inspect, load as a job, switching, clean shutdown. */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { availableParallelism, totalmem } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callMethod } from '../../../electron/services/api';
import type { JobProgress } from '../../../electron/shared/api/jobs';
import { workspace, type Workspace } from './modelFixture';

let ws: Workspace;
beforeAll(() => {
  ws = workspace('model-api');
});
afterAll(() => ws?.remove());

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('model API', () => {
  it('starts on the reference learner, labelled as a baseline, with no model host', async () => {
    const status = await callMethod(ws.ctx, 'model.status', {});
    expect(status.active).toMatchObject({ backend: 'reference', kind: 'baseline' });
    expect(status.active.name).toMatch(/baseline, not an LLM/);
    expect(status).toMatchObject({ gguf: null, remote: null, loadingJobId: null });
    expect(status.host.running).toBe(false);
    // The hardware summary is there before any GGUF, without starting the model host.
    expect(status.hardware).toMatchObject({ platform: `${process.platform}-${process.arch}`, cpuCores: availableParallelism(), totalMemoryBytes: totalmem(), modelHost: null });
    expect(status.hardware.cpuModel).not.toBe('');
    expect(status.hardware.defaultThreads).toBe(Math.max(1, Math.floor(availableParallelism() / 2)));
    expect(status.hardware.llamaBuilds).toContain(`linux-${process.arch}`);
    expect((await callMethod(ws.ctx, 'app.info', {})).backend).toBe('reference');
  });

  it('inspects a GGUF without loading it', async () => {
    const path = ws.gguf('inspect.gguf', { seed: 11 });
    const info = await callMethod(ws.ctx, 'model.inspect', { path });
    expect(info.sha256).toBe(createHash('sha256').update(readFileSync(path)).digest('hex'));
    expect(info.metadata).toMatchObject({ architecture: 'llama', name: 'veil-tiny-llama', vocabularySize: 734, contextLength: 2048, quantisation: 'F32' });
    expect(info.fileName).toBe('inspect.gguf');
    expect((await callMethod(ws.ctx, 'model.status', {})).host.running).toBe(false);
  });

  it('loads a GGUF as a job with progress, switches backends and shuts the host down with the context', async () => {
    const events: JobProgress[] = [];
    const unsubscribe = ws.ctx.subscribe((event, payload) => event === 'job.progress' && events.push(payload as JobProgress));
    const path = ws.gguf('load.gguf', { seed: 12 });
    const { jobId } = await callMethod(ws.ctx, 'model.loadGguf', { path, threads: 1, sequences: 2, contextSize: 256 });
    const job = await ws.ctx.jobs.wait(jobId);
    unsubscribe();
    expect(job).toMatchObject({ kind: 'model.load', status: 'succeeded' });
    expect(job.result).toMatchObject({ path, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const stages = new Set(events.filter((e) => e.jobId === jobId).map((e) => e.stage));
    expect([...stages]).toEqual(['validate', 'hash', 'start', 'load']); // in this order, and nothing else
    const loadEvents = events.filter((e) => e.stage === 'load');
    expect(loadEvents.at(-1)).toMatchObject({ done: 1000, total: 1000 });

    const status = await callMethod(ws.ctx, 'model.status', {});
    expect(status.active.backend).toBe('llama.cpp');
    expect(status.gguf).toMatchObject({ fileName: 'load.gguf', contextSize: 256, sequences: 2, threads: 1 });
    expect(status.hardware.modelHost).toMatchObject({ backend: 'cpu', threads: 1 });
    const pid = status.host.pid!;
    expect(alive(pid)).toBe(true);

    const back = await callMethod(ws.ctx, 'model.useReference', {});
    expect(back.active.backend).toBe('reference');
    expect(back.gguf).toBeNull();
    expect(back.hardware.modelHost).toBeNull();
    expect(back.host.running).toBe(true);

    // close() resolves only once the host process has exited: no grace period needed.
    await ws.ctx.close();
    expect(alive(pid)).toBe(false);
  });
});
