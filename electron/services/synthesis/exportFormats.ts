/**
 * The export forms of a DP prompt: the versioned JSON (with its certificate), Markdown (with a
 * certificate comment), chat messages, and the prompt alone as plain text, to paste as is.
 */
import { toChatMessages, toMarkdown, type DpPromptExport } from '../../../core/export/dpPromptFormat';
import type { PromptTemplate } from '../../../core/icl/prompts';

export type ExportFormat = 'json' | 'markdown' | 'chat' | 'text';

const slug = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'dataset';

export function exportDocument(doc: DpPromptExport, runId: number, format: ExportFormat): { fileName: string; mediaType: string; content: string } {
  const base = `veil-dp-prompt-${slug(doc.certificate.dataset.name)}-run${runId}`;
  if (format === 'text') return { fileName: `${base}.txt`, mediaType: 'text/plain', content: `${doc.prompt.trimEnd()}\n` };
  if (format === 'markdown') return { fileName: `${base}.md`, mediaType: 'text/markdown', content: toMarkdown(doc) };
  if (format === 'chat') {
    const template = doc.certificate.parameters.template as PromptTemplate | undefined;
    const messages = toChatMessages(doc, template?.inputPrefix);
    return { fileName: `${base}.chat.json`, mediaType: 'application/json', content: `${JSON.stringify(messages, null, 2)}\n` };
  }
  return { fileName: `${base}.json`, mediaType: 'application/json', content: `${JSON.stringify(doc, null, 2)}\n` };
}
