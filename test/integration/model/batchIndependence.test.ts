/**
 * Issue 20, item 3, on real llama.cpp (generated tiny GGUF, F32 — the weight type whose
 * logits we measured to depend on the number of rows in a decode): a teacher's vector is
 * bit-identical whatever the other teacher prompts are and whatever the sequences held
 * before, in both sampling modes; the public prompt's top tokens are bit-identical whatever
 * the teachers hold. And the per-demonstration path reuses each teacher's KV cache: a
 * continuing step evaluates one token per teacher, counted by the host.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenId } from '../../../core/model/languageModel';
import { getModelService } from '../../../electron/services/model/modelHandlers';
import type { LlamaModel } from '../../../electron/services/model/llamaModel';
import { workspace, type Workspace } from './modelFixture';

let ws: Workspace;
let model: LlamaModel;
const CANDIDATES = [300, 356, 400, 500, 600];
const bits = (probs: Float64Array) => Array.from(probs, (p) => p.toString(16)).join(' ');

beforeAll(async () => {
  ws = workspace('batch');
  const path = ws.gguf('tiny.gguf', { seed: 5, embeddingLength: 128, feedForwardLength: 256 });
  const job = await ws.load(path, { threads: 1, sequences: 4, contextSize: 512 });
  expect(job.status).toBe('succeeded');
  model = (await (await getModelService(ws.ctx)).current()) as LlamaModel;
});
afterAll(() => ws?.remove());

const teacher = 'Write an e-mail.\n\nText: hello there, free money offer, click now\n\nText: the quick brown fox';
/** The other teachers of a step (always three: M is public, and a decode's row count is M·k). */
const companions = [
  ['short', 'x', 'Write an e-mail.'],
  [`${teacher} jumps over the lazy dog `.repeat(8), `help me please ${'y'.repeat(300)}`, 'a b c '.repeat(40)],
  ['a b c '.repeat(40), 'Write an e-mail.\n\nText: the the the', 'z'],
];

describe('batch-independent numerics (llama.cpp)', () => {
  it('per token: a teacher’s vector does not depend on the other prompts or on what the sequences held', async () => {
    const seen = new Set<string>();
    for (const others of companions) {
      for (const at of [0, 1]) {
        const prompts = [...others];
        prompts.splice(at, 0, teacher);
        const vectors = await model.nextTokenDistributions(prompts, { restrictTo: CANDIDATES });
        seen.add(bits(vectors[at].probs));
        // Let the sequences hold something else (longer prompts sharing the teacher's prefix).
        await model.nextTokenDistributions([`${teacher} and more`, `${teacher}!`], { restrictTo: CANDIDATES });
      }
    }
    expect(seen.size).toBe(1);
  });

  it('per demonstration: a continuing teacher’s vectors do not depend on the other teachers', async () => {
    const tokens = await model.tokenize(teacher);
    const runs = new Set<string>();
    for (const others of companions) {
      const prompts: TokenId[][] = [tokens, ...(await Promise.all(others.map((o) => model.tokenize(o))))];
      const trail: string[] = [];
      for (const next of [null, 400, 500, 356]) {
        if (next !== null) for (const p of prompts) p.push(next);
        const vectors = await model.nextTokenDistributions(prompts.map((p) => [...p]), { restrictTo: CANDIDATES, continuing: next !== null });
        trail.push(bits(vectors[0].probs));
      }
      tokens.splice(tokens.length - 3, 3);
      runs.add(trail.join('|'));
    }
    expect(runs.size).toBe(1);
  });

  it('per demonstration: each step after the first evaluates one token per teacher (KV reused), the first prefills every prompt once', async () => {
    const prompts = await Promise.all(['Text: free money now', 'Text: meeting at noon tomorrow', 'Text: hello'].map((t) => model.tokenize(`Write an e-mail.\n\n${t}\n\nText:`)));
    const bos = 1;
    const before = await model.counters();
    await model.nextTokenDistributions(prompts, { restrictTo: CANDIDATES });
    const prefilled = (await model.counters()).evaluatedTokens - before.evaluatedTokens;
    expect(prefilled).toBe(prompts.reduce((s, p) => s + p.length + bos, 0));
    for (const next of [400, 500, 356, 600]) {
      const start = await model.counters();
      for (const p of prompts) p.push(next);
      await model.nextTokenDistributions(prompts, { restrictTo: CANDIDATES, continuing: true });
      const now = await model.counters();
      expect(now.evaluatedTokens - start.evaluatedTokens).toBe(prompts.length);
      expect(now.evaluations - start.evaluations).toBe(prompts.length); // one per sequence, in one batch
    }
    // Without `continuing` (fresh teachers every token) each prompt is prefilled again, alone.
    const start = await model.counters();
    await model.nextTokenDistributions(prompts, { restrictTo: CANDIDATES });
    expect((await model.counters()).evaluatedTokens - start.evaluatedTokens).toBe(prompts.reduce((s, p) => s + p.length + bos, 0));
  });

  it('the public prompt’s top tokens do not depend on what the teacher sequences hold', async () => {
    const publicPrompt = 'Write an e-mail.\n\nText: the';
    const seen = new Set<string>();
    await model.topNextTokens(publicPrompt, 20); // its sequence's history is public: the same before every look
    for (const others of [[], ['x'], ['x', 'y'], companions[1]]) {
      await model.nextTokenDistributions([`${publicPrompt} quick`, ...others], { restrictTo: CANDIDATES, continuing: true });
      const top = await model.topNextTokens(publicPrompt, 20);
      seen.add(top.map((t) => `${t.token}:${t.prob.toString(16)}`).join(' '));
    }
    expect(seen.size).toBe(1);
  });
});
