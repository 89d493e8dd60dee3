/**
 * Loads the reference learner's background (resources/model/reference-background.json)
 * from disk — core/ has no file access — and builds the learner once per process (it is
 * immutable). The resources directory is $VEIL_RESOURCES_DIR, Electron's resourcesPath
 * in a packaged app, or the first `resources/` found walking up from this module.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseBackgroundData, type BackgroundData } from '../../../core/model/reference/backgroundData';
import { ReferenceLearner } from '../../../core/model/reference/referenceLearner';

const FILE = join('model', 'reference-background.json');

function referenceBackgroundPath(): string {
  const candidates: string[] = [];
  if (process.env.VEIL_RESOURCES_DIR) candidates.push(join(process.env.VEIL_RESOURCES_DIR, FILE));
  const resourcesPath = (process as { resourcesPath?: string }).resourcesPath;
  if (resourcesPath) candidates.push(join(resourcesPath, FILE), join(resourcesPath, 'resources', FILE));
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    candidates.push(join(dir, 'resources', FILE));
    if (dirname(dir) === dir) break;
  }
  const found = candidates.find((c) => existsSync(c));
  if (!found) throw new Error('the reference learner background (resources/model/reference-background.json) is missing; run: npx tsx scripts/generate-reference-background.ts');
  return found;
}

let background: Promise<BackgroundData> | undefined;
let learner: Promise<ReferenceLearner> | undefined;

/** The general background (the public e-mail corpus), parsed once per process. */
export function loadReferenceBackground(): Promise<BackgroundData> {
  background ??= readFile(referenceBackgroundPath(), 'utf8')
    .then((json) => parseBackgroundData(JSON.parse(json)))
    .catch((error: unknown) => {
      background = undefined;
      throw error;
    });
  return background;
}

/** The process-wide reference learner. */
export function loadReferenceLearner(): Promise<ReferenceLearner> {
  learner ??= loadReferenceBackground()
    .then((data) => new ReferenceLearner(data))
    .catch((error: unknown) => {
      learner = undefined;
      throw error;
    });
  return learner;
}
