/**
 * Bad model files never take the app down: truncated or malformed headers and impossible
 * hyperparameters are rejected before llama.cpp sees them; a file that passes those checks
 * but trips a GGML assertion (here an unknown RoPE scaling type) aborts only the model
 * host process, which reports a clear error and restarts.
 */
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GgufValueType } from '../../../core/model/gguf/ggufTypes';
import type { GgufEntry } from '../../../core/model/gguf/ggufWriter';
import { makeTinyLlamaGguf } from '../../../core/model/gguf/tinyLlama';
import { BadRequestError, callMethod } from '../../../electron/services/api';
import { workspace, type Workspace } from './modelFixture';

let ws: Workspace;
beforeAll(() => {
  ws = workspace('bad-gguf');
});
afterAll(() => ws?.remove());

const u32 = (key: string, value: number): GgufEntry => ({ key, type: GgufValueType.UINT32, value });

async function referenceStillAnswers(): Promise<void> {
  const tried = await callMethod(ws.ctx, 'model.try', { prompt: 'Subject: hello', maxTokens: 2 });
  expect(tried.backend).toBe('reference');
}

describe('malformed GGUF files', () => {
  it('rejects paths that are not absolute .gguf regular files', async () => {
    await expect(callMethod(ws.ctx, 'model.loadGguf', { path: 'relative.gguf' })).rejects.toThrow(/must be absolute/);
    await expect(callMethod(ws.ctx, 'model.loadGguf', { path: join(ws.dir, 'model.bin') })).rejects.toThrow(/not a .gguf file/);
    await expect(callMethod(ws.ctx, 'model.inspect', { path: join(ws.dir, 'missing.gguf') })).rejects.toThrow(/no such file/);
    mkdirSync(join(ws.dir, 'folder.gguf'));
    await expect(callMethod(ws.ctx, 'model.inspect', { path: join(ws.dir, 'folder.gguf') })).rejects.toThrow(/is a directory, not a file/);
    await expect(callMethod(ws.ctx, 'model.loadGguf', { path: '' })).rejects.toBeInstanceOf(BadRequestError);
  });

  it('fails a truncated download or a non-GGUF file with a clear error; the app keeps running', async () => {
    const good = makeTinyLlamaGguf();
    const truncated = await ws.load(ws.write('truncated.gguf', good.subarray(0, Math.floor(good.length * 0.6))));
    expect(truncated.status).toBe('failed');
    expect(truncated.error).toMatch(/truncated/);
    const garbage = await ws.load(ws.write('garbage.gguf', new TextEncoder().encode('this is not a model, just text pretending to be one')));
    expect(garbage.error).toMatch(/not a GGUF file/);
    await expect(callMethod(ws.ctx, 'model.inspect', { path: join(ws.dir, 'truncated.gguf') })).rejects.toThrow(/truncated/);
    const status = await callMethod(ws.ctx, 'model.status', {});
    expect(status.active.backend).toBe('reference');
    expect(status.lastError).toMatch(/not a GGUF file/);
    await referenceStillAnswers();
  });

  it('refuses impossible hyperparameters (which would abort llama.cpp) before starting the model host', async () => {
    const cases: [GgufEntry, RegExp][] = [
      [u32('llama.attention.head_count_kv', 0), /head_count_kv is 0/],
      [u32('llama.attention.head_count_kv', 3), /head_count_kv \(3\) does not divide llama\.attention\.head_count \(4\)/],
      [u32('llama.block_count', 0), /block_count is 0/],
      [u32('llama.feed_forward_length', 0), /feed_forward_length is 0/],
    ];
    for (const [entry, message] of cases) {
      const job = await ws.load(ws.gguf('impossible.gguf', { metadataOverrides: [entry] }));
      expect(job.status).toBe('failed');
      expect(job.error).toMatch(/^invalid model metadata: /);
      expect(job.error).toMatch(message);
    }
    await expect(callMethod(ws.ctx, 'model.inspect', { path: join(ws.dir, 'impossible.gguf') })).rejects.toThrow(/feed_forward_length is 0/);
    const status = await callMethod(ws.ctx, 'model.status', {});
    expect(status.host).toMatchObject({ running: false, restarts: 0, lastCrash: null });
    await referenceStillAnswers();
  });

  it('reports llama.cpp load errors (wrong tensor shapes) with llama.cpp’s reason', async () => {
    // One key/value head is a valid setting, but the tensors were written for two.
    const path = ws.gguf('wrong-shape.gguf', { metadataOverrides: [u32('llama.attention.head_count_kv', 1)] });
    const job = await ws.load(path);
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(/could not load the model: .*wrong shape/);
    expect((await callMethod(ws.ctx, 'model.status', {})).host.running).toBe(true);
  });

  it('survives a GGUF that aborts llama.cpp with a GGML assertion, then loads a good model', async () => {
    const path = ws.gguf('aborts.gguf', { metadataOverrides: [{ key: 'llama.rope.scaling.type', type: GgufValueType.STRING, value: 'bogus' }] });
    const before = await callMethod(ws.ctx, 'model.status', {});
    const job = await ws.load(path);
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(/model host process .*(SIGABRT|code 134).*llama.cpp aborted/);
    expect(job.error).toMatch(/GGML_ASSERT/);
    const after = await callMethod(ws.ctx, 'model.status', {});
    expect(after.host.lastCrash?.message).toMatch(/llama.cpp aborted/);
    expect(after.host.restarts).toBe(before.host.restarts + 1);
    expect(after.active.backend).toBe('reference');
    await referenceStillAnswers();

    const good = await ws.load(ws.gguf('good.gguf'), { sequences: 2, contextSize: 256 });
    expect(good.status).toBe('succeeded');
    const tried = await callMethod(ws.ctx, 'model.try', { prompt: 'hello', maxTokens: 3 });
    expect(tried.backend).toBe('llama.cpp');
    expect(tried.topTokens.length).toBeGreaterThan(0);
    writeFileSync(join(ws.dir, 'done'), '');
  });
});
