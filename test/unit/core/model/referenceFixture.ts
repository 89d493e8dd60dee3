/** The shipped reference learner background, read from resources/ for tests. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseBackgroundData } from '../../../../core/model/reference/backgroundData';
import { ReferenceLearner } from '../../../../core/model/reference/referenceLearner';

let learner: ReferenceLearner | undefined;

export function referenceLearner(): ReferenceLearner {
  learner ??= new ReferenceLearner(parseBackgroundData(JSON.parse(readFileSync(join(process.cwd(), 'resources/model/reference-background.json'), 'utf8'))));
  return learner;
}
