import { describe, expect, it } from 'vitest';
import { defaultTemplate, publicPrompt, teacherPrompt } from '../../../../core/icl/prompts';

const t = defaultTemplate('Write an e-mail.');

describe('generation prompts', () => {
  it('end at the prefix before the first token (no trailing space), then hold the text so far after one space', () => {
    expect(publicPrompt(t, 'spam', '')).toBe('Write an e-mail.\n\nLabel: spam\nText:');
    expect(publicPrompt(t, 'spam', ' Win')).toBe('Write an e-mail.\n\nLabel: spam\nText: Win');
    expect(publicPrompt(t, undefined, '', { kind: 'output', input: 'Long note' })).toBe('Write an e-mail.\n\nText: Long note\nOutput:');
    expect(teacherPrompt(t, [{ text: 'Cheap pills', label: 'spam' }], 'spam', 'Free')).toBe('Write an e-mail.\n\nLabel: spam\nText: Cheap pills\n\nLabel: spam\nText: Free');
  });
});
