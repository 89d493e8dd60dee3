/**
 * Bad model files never take the app down: truncated or malformed headers are rejected
 * before llama.cpp sees them; a file that passes the header checks but trips a GGML
 * assertion aborts only the model host process, which reports a clear error and restarts.
 */
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GgufValueType } from '../../../core/model/gguf/ggufTypes';
import { makeTinyLlamaGguf } from '../../../core/model/gguf/tinyLlama';
import { BadRequestError, callMethod } from '../../../electron/services/api';
import { workspace, type Workspace } from './modelFixture';

let ws: Workspace;
beforeAll(() => {
  ws = workspace('bad-gguf');
});
afterAll(() => ws?.dispose());

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
    await expect(callMethod(ws.ctx, 'model.inspect', { path: join(ws.dir, 'folder.gguf') })).rejects.toThrow(/not a regular file/);
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

  it('reports llama.cpp load errors (wrong tensor shapes) with llama.cpp’s reason', async () => {
    const path = ws.gguf('wrong-shape.gguf', { metadataOverrides: [{ key: 'llama.attention.head_count_kv', type: GgufValueType.UINT32, value: 3 }] });
    const job = await ws.load(path);
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(/could not load the model: .*wrong shape/);
    expect((await callMethod(ws.ctx, 'model.status', {})).host.running).toBe(true);
  });

  it('survives a GGUF that aborts llama.cpp with a GGML assertion, then loads a good model', async () => {
    const path = ws.gguf('aborts.gguf', { metadataOverrides: [{ key: 'llama.attention.head_count_kv', type: GgufValueType.UINT32, value: 0 }] });
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
