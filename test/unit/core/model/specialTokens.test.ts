import { describe, expect, it } from 'vitest';
import { specialByText } from '../../../../core/model/specialTokens';

describe('specialByText', () => {
  it('knows the usual end-of-text markers', () => {
    for (const text of ['</s>', '<eos>', '<|endoftext|>', '<|im_end|>', '<|eot_id|>', '<end_of_turn>', '<|end|>']) expect(specialByText(text)).toBe('end');
  });
  it('takes other markers for control tokens and everything else for text', () => {
    for (const text of ['<s>', '<unk>', '<pad>', '<|begin_of_text|>', '<|im_start|>']) expect(specialByText(text)).toBe('control');
    for (const text of [' the', '<0x0A>', '<b>', '< s >', 'end', '<|', '']) expect(specialByText(text)).toBeUndefined();
  });
});
