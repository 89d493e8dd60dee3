/**
 * Prompt templates for DP few-shot generation and for using a synthetic prompt.
 *
 * Teacher prompt  = instruction + the teacher's private demonstrations + "label" + text so far.
 * Public prompt   = instruction + "label" + text so far (no private records): it chooses the
 *                   candidate tokens, so the candidate set never depends on private data.
 * Labels always come from the dataset's public label set, never from private records.
 */
export interface Demonstration {
  text: string;
  /** Absent for generation tasks without labels. */
  label?: string;
}

export interface PromptTemplate {
  instruction: string;
  /** Prefix before the demonstration text, e.g. "Email:". */
  inputPrefix: string;
  /** Prefix before the label, e.g. "Label:". */
  labelPrefix: string;
  /** Private records are cut to this many characters in teacher prompts (a public setting). */
  maxExampleChars: number;
}

export const defaultTemplate = (instruction: string): PromptTemplate => ({
  instruction,
  inputPrefix: 'Text:',
  labelPrefix: 'Label:',
  maxExampleChars: 400,
});

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Generation order: label first, so the text that follows is conditioned on it. */
function generationDemo(t: PromptTemplate, demo: Demonstration): string {
  const label = demo.label === undefined ? '' : `${t.labelPrefix} ${demo.label}\n`;
  return `${label}${t.inputPrefix} ${oneLine(demo.text).slice(0, t.maxExampleChars)}\n`;
}

/** Use order: text first, label after, as a query will be asked. */
function usageDemo(t: PromptTemplate, demo: Demonstration): string {
  const label = demo.label === undefined ? '' : `${t.labelPrefix} ${demo.label}\n`;
  return `${t.inputPrefix} ${oneLine(demo.text)}\n${label}`;
}

/** The prompt a teacher sees while generating a demonstration for `label`. */
export function teacherPrompt(t: PromptTemplate, demos: readonly Demonstration[], label: string | undefined, soFar: string): string {
  const shots = demos.map((d) => generationDemo(t, d)).join('\n');
  const head = label === undefined ? '' : `${t.labelPrefix} ${label}\n`;
  return `${t.instruction}\n\n${shots}${shots ? '\n' : ''}${head}${t.inputPrefix} ${soFar}`;
}

/** The same prompt with no private demonstrations: chooses the candidate tokens. */
export function publicPrompt(t: PromptTemplate, label: string | undefined, soFar: string): string {
  return teacherPrompt(t, [], label, soFar);
}

/** The released few-shot prompt: instruction and the synthetic demonstrations, ready to paste. */
export function renderFewShotPrompt(t: PromptTemplate, demos: readonly Demonstration[]): string {
  return `${t.instruction}\n\n${demos.map((d) => usageDemo(t, d)).join('\n')}`;
}

/** A classification query after a few-shot prompt: the model continues with the label. */
export function classificationQuery(t: PromptTemplate, fewShot: string, text: string): string {
  return `${fewShot}\n${t.inputPrefix} ${oneLine(text)}\n${t.labelPrefix}`;
}
