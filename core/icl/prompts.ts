/**
 * Prompt templates for DP few-shot generation and for using a synthetic prompt.
 *
 * Teacher prompt  = instruction + the teacher's private demonstrations + "label" + text so far.
 * Public prompt   = instruction + "label" + text so far (no private records; in an output
 *                   phase also the synthetic input): it chooses the candidate tokens, so the
 *                   candidate set never depends on private data.
 * Generation tasks write a demonstration in two phases: its input, then its output after
 * "Output:" (the teachers' records show their reference outputs).
 * Labels always come from the dataset's public label set, never from private records.
 */
export interface Demonstration {
  text: string;
  /** Absent for generation tasks without labels. */
  label?: string;
  /** Generation tasks: the (reference or synthetic) output for `text`. */
  output?: string;
}

/** Where a generation is in a demonstration: writing its input, or its output for `input`. */
export type Phase = { kind: 'input' } | { kind: 'output'; input: string };
export const INPUT_PHASE: Phase = { kind: 'input' };

export interface PromptTemplate {
  instruction: string;
  /** Prefix before the demonstration text, e.g. "Email:". */
  inputPrefix: string;
  /** Prefix before the label, e.g. "Label:". */
  labelPrefix: string;
  /** Prefix before a generation task's output (default "Output:"; absent in older certificates). */
  outputPrefix?: string;
  /** Private records are cut to this many characters in teacher prompts (a public setting). */
  maxExampleChars: number;
}

export const defaultTemplate = (instruction: string): PromptTemplate => ({
  instruction,
  inputPrefix: 'Text:',
  labelPrefix: 'Label:',
  outputPrefix: 'Output:',
  maxExampleChars: 400,
});

const outputPrefix = (t: PromptTemplate) => t.outputPrefix ?? 'Output:';

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Generation order: label first, so the text that follows is conditioned on it. */
function generationDemo(t: PromptTemplate, demo: Demonstration): string {
  const label = demo.label === undefined ? '' : `${t.labelPrefix} ${demo.label}\n`;
  const output = demo.output === undefined ? '' : `${outputPrefix(t)} ${oneLine(demo.output).slice(0, t.maxExampleChars)}\n`;
  return `${label}${t.inputPrefix} ${oneLine(demo.text).slice(0, t.maxExampleChars)}\n${output}`;
}

/** Use order: text first, then the label or output, as a query will be asked. */
function usageDemo(t: PromptTemplate, demo: Demonstration): string {
  const label = demo.label === undefined ? '' : `${t.labelPrefix} ${demo.label}\n`;
  const output = demo.output === undefined ? '' : `${outputPrefix(t)} ${oneLine(demo.output)}\n`;
  return `${t.inputPrefix} ${oneLine(demo.text)}\n${label}${output}`;
}

/**
 * A prefix and the text written after it so far. Before the first token the prompt ends at
 * the prefix, with no trailing space: tokenizers put a word's space in the word's own token
 * (" Hello"), so a prompt ending in a space asks for an unusual continuation.
 */
const continued = (prefix: string, soFar: string) => (soFar === '' ? prefix : `${prefix} ${soFar.trimStart()}`);

/** The prompt a teacher sees while generating a demonstration for `label`, in `phase`. */
export function teacherPrompt(t: PromptTemplate, demos: readonly Demonstration[], label: string | undefined, soFar: string, phase: Phase = INPUT_PHASE): string {
  const shots = demos.map((d) => generationDemo(t, d)).join('\n');
  const head = label === undefined ? '' : `${t.labelPrefix} ${label}\n`;
  const body = phase.kind === 'input' ? continued(t.inputPrefix, soFar) : `${t.inputPrefix} ${phase.input}\n${continued(outputPrefix(t), soFar)}`;
  return `${t.instruction}\n\n${shots}${shots ? '\n' : ''}${head}${body}`;
}

/** The same prompt with no private demonstrations: chooses the candidate tokens. */
export function publicPrompt(t: PromptTemplate, label: string | undefined, soFar: string, phase: Phase = INPUT_PHASE): string {
  return teacherPrompt(t, [], label, soFar, phase);
}

/** The released few-shot prompt: instruction and the synthetic demonstrations, ready to paste. */
export function renderFewShotPrompt(t: PromptTemplate, demos: readonly Demonstration[]): string {
  return `${t.instruction}\n\n${demos.map((d) => usageDemo(t, d)).join('\n')}`;
}

/** A classification query after a few-shot prompt: the model continues with the label. */
export function classificationQuery(t: PromptTemplate, fewShot: string, text: string): string {
  return `${fewShot}\n${t.inputPrefix} ${oneLine(text)}\n${t.labelPrefix}`;
}

/** A generation query after a few-shot prompt: the model continues with the output. */
export function generationQuery(t: PromptTemplate, fewShot: string, text: string): string {
  return `${fewShot}\n${t.inputPrefix} ${oneLine(text)}\n${outputPrefix(t)}`;
}
