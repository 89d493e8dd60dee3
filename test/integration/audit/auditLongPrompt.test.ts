/**
 * An audit whose prompts exceed the model's context (the tiny GGUF loaded with a 1,024-token
 * context) runs to the end: each prompt is cut from the left by whole paragraphs (oldest
 * demonstrations first), the query is never cut, and the report counts the cut prompts of
 * members and non-members. Before, the job failed with "the prompt has N tokens".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowSeededOnPrivatePath } from '../../../core/random/privatePathRandom';
import { seededRandom } from '../../../core/random/seededRandom';
import { callMethod } from '../../../electron/services/api';
import { getAuditService } from '../../../electron/services/audit/auditHandlers';
import { workspace, type Workspace } from '../model/modelFixture';
import { auditLongPrompt } from './longPromptAudit';

let ws: Workspace;

beforeAll(async () => {
  ws = workspace('audit-long');
  expect((await ws.load(ws.gguf('tiny.gguf'), { threads: 1, contextSize: 1024 })).status).toBe('succeeded');
  await callMethod(ws.ctx, 'vault.createSample', { name: 'mail' });
  await getAuditService(ws.ctx, allowSeededOnPrivatePath(seededRandom(5), 'test'));
}, 120_000);
afterAll(async () => ws?.remove());

describe('audit prompts longer than the context (tiny GGUF)', () => {
  it('cuts every prompt from the left, the same way for members and non-members, and reports the count', async () => {
    const auditId = await auditLongPrompt(ws.ctx);
    const { content } = await callMethod(ws.ctx, 'audit.export', { id: auditId, format: 'html' });
    expect(content).toMatch(/cut from the left to fit the model’s context/);
  }, 600_000);
});
