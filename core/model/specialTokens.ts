/**
 * Special tokens recognised by their text, for backends that report only a token's text (an
 * OpenAI-compatible server): "</s>", "<eos>", "<|endoftext|>", "<|im_end|>", "<|eot_id|>",
 * "<end_of_turn>" end a text; other "<|…|>" markers and "<s>", "<unk>", "<pad>" are control
 * tokens. Byte tokens ("<0x0A>") are text. Backends that know their vocabulary's token types
 * (llama.cpp, the reference learner) mark special tokens from those instead.
 */
import type { TopToken } from './languageModel';

const END = /^(<\/s>|<\|?(eos|eot|eot_id|endoftext|end_of_text|im_end|end_of_turn|end)\|?>)$/i;
const CONTROL = /^(<\|[^|<>\s]+\|>|<(s|unk|pad|bos|mask)>)$/i;

export function specialByText(text: string): TopToken['special'] {
  if (END.test(text)) return 'end';
  if (CONTROL.test(text)) return 'control';
  return undefined;
}
