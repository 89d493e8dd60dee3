/**
 * The job tests' data directory: a 'mail' classification dataset (spam, ham) of up to 300
 * SpamAssassin e-mails that the reference learner's background never saw, ordered by checksum
 * (the corpus is grouped by folder, ham first: this mixes both labels) with repeated texts
 * dropped (the vault would refuse them): 240 private, 20 public, the rest held out; and a budget.
 * Also the capture of everything the process prints, to check that no private text is printed.
 */
import { vi } from 'vitest';
import { callMethod } from '../../electron/services/api';
import { isBackgroundEmail, loadSpamAssassin } from '../../scripts/model/spamAssassin';
import { datasetWith, tempServices, type TempServices } from './services';

export interface MailDataDir extends TempServices {
  privateTexts: string[];
  heldOut: string[];
}

export async function mailDataDir(prefix: string, budget: { epsilon: number; delta: number }): Promise<MailDataDir> {
  const services = tempServices(prefix);
  const seen = new Set<string>();
  const emails = loadSpamAssassin(300)
    .filter((e) => !isBackgroundEmail(e) && !seen.has(e.text) && seen.add(e.text))
    .sort((a, b) => (a.checksum < b.checksum ? -1 : 1));
  const split = (i: number): 'private' | 'public' | 'held-out' => (i < 240 ? 'private' : i < 260 ? 'public' : 'held-out');
  const records = emails.slice(0, 300).map((e, i) => ({ text: e.text, label: e.label, split: split(i) }));
  await datasetWith(services.ctx, { name: 'mail', labels: ['spam', 'ham'] }, records);
  await callMethod(services.ctx, 'budget.set', { dataset: 'mail', ...budget });
  const texts = (of: string) => records.filter((r) => r.split === of).map((r) => r.text);
  return { ...services, privateTexts: texts('private'), heldOut: texts('held-out') };
}

/** From now on, what the process prints (stdout, stderr, console) goes to `printed` instead; vi.restoreAllMocks() ends it. */
export function capturePrinted(printed: string[]): void {
  for (const stream of [process.stdout, process.stderr]) {
    vi.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => (printed.push(String(chunk)), true));
  }
  for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void printed.push(args.map(String).join(' ')));
  }
}
