/**
 * The prompt that asks a model for one new example like the given PUBLIC seeds, and the parse
 * of its answer. Only public examples ever enter it (augmentationSeeds.ts selects them).
 */
export interface SeedExample {
  text: string;
  /** The reference output (generation tasks) or the label (classification), if any. */
  answer: string | null;
}

export const AUGMENTATION_TEXT_PREFIX = 'Text:';
export const AUGMENTATION_ANSWER_PREFIX = 'Answer:';
/** Longest seed text shown (characters); longer ones are cut. */
const SEED_CHARS = 1200;

const cut = (s: string) => (s.length > SEED_CHARS ? `${s.slice(0, SEED_CHARS)}…` : s);

/** Seeds shown in rotation (seed i first for the i-th new example), so the new examples spread over the clusters. */
export function augmentationPrompt(instruction: string, seeds: readonly SeedExample[], index: number): string {
  if (seeds.length === 0) throw new RangeError('augmentationPrompt: no seed examples');
  const order = seeds.map((_, i) => seeds[(index + i) % seeds.length]);
  const shown = order.map((s) => [`${AUGMENTATION_TEXT_PREFIX} ${cut(s.text)}`, ...(s.answer === null ? [] : [`${AUGMENTATION_ANSWER_PREFIX} ${cut(s.answer)}`])].join('\n'));
  return [
    `${instruction.trim()}`,
    'Write one new example of the same kind as the examples below: a different text on a similar subject, in the same style and length, with its answer.',
    '',
    ...shown.flatMap((s) => [s, '']),
    AUGMENTATION_TEXT_PREFIX,
  ].join('\n');
}

/** The generated example (text, and the answer if the model wrote one); null when the model wrote no text. */
export function parseGenerated(generated: string): SeedExample | null {
  const [textPart, ...rest] = generated.split(AUGMENTATION_ANSWER_PREFIX);
  const text = textPart.split(`\n${AUGMENTATION_TEXT_PREFIX}`)[0].trim();
  if (text === '') return null;
  const answer = rest.length === 0 ? '' : rest.join(AUGMENTATION_ANSWER_PREFIX).split(`\n${AUGMENTATION_TEXT_PREFIX}`)[0].trim();
  return { text, answer: answer === '' ? null : answer };
}
