/**
 * The line that names the model where ε is spent (Synthesize page, `veil synth`): which
 * model writes the demonstrations and, for the reference learner, that it is a
 * statistical baseline and that a GGUF gives real demonstrations.
 */
export interface ActiveModel {
  backend: 'reference' | 'llama.cpp' | 'openai-compatible';
  name: string;
}

export const REFERENCE_BASELINE =
  'a statistical baseline, not a language model: its demonstrations are strings of words from the dataset\'s public text chosen by the private votes, not written text.';
const GGUF_HINT = 'Load a GGUF on the Models page for real demonstrations.';

export function modelNotice(active: ActiveModel): { model: string; baseline: boolean; line: string } {
  if (active.backend === 'reference') return { model: 'reference learner', baseline: true, line: `Model: reference learner — ${REFERENCE_BASELINE} ${GGUF_HINT}` };
  const where = active.backend === 'llama.cpp' ? 'llama.cpp' : 'OpenAI-compatible server';
  return { model: active.name, baseline: false, line: `Model: ${active.name} (${where}).` };
}
