/** The line naming the model where ε is spent: a baseline warning and the GGUF hint for the reference learner only. */
import { describe, expect, it } from 'vitest';
import { modelNotice } from '../../../electron/shared/modelNotice';

describe('modelNotice', () => {
  it('says the reference learner is a statistical baseline and that a GGUF gives real demonstrations', () => {
    const notice = modelNotice({ backend: 'reference', name: 'reference learner (statistical baseline, not an LLM)' });
    expect(notice.baseline).toBe(true);
    expect(notice.line).toMatch(/^Model: reference learner — a statistical baseline, not a language model/);
    expect(notice.line).toMatch(/Load a GGUF on the Models page for real demonstrations\.$/);
  });

  it('names a GGUF or a server model without the baseline warning', () => {
    expect(modelNotice({ backend: 'llama.cpp', name: 'tiny.gguf' })).toEqual({ model: 'tiny.gguf', baseline: false, line: 'Model: tiny.gguf (llama.cpp).' });
    expect(modelNotice({ backend: 'openai-compatible', name: 'qwen' }).line).toBe('Model: qwen (OpenAI-compatible server).');
  });
});
