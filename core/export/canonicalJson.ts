/**
 * Canonical JSON (object keys sorted recursively, no whitespace) and its SHA-256, so a
 * document hashes the same wherever it is re-serialised, and the JSON paths at which two
 * documents differ (to name what was edited). Uses WebCrypto (browser and Node).
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = sortKeys(v);
    }
    return out;
  }
  return value;
}

export async function sha256Hex(text: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

const isContainer = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === 'object';

/** The paths (`a.b[2].c`) of the leaves that differ between two JSON values, in key order. */
export function changedPaths(before: unknown, after: unknown, path = ''): string[] {
  if (canonicalJson(before) === canonicalJson(after)) return [];
  if (!isContainer(before) || !isContainer(after) || Array.isArray(before) !== Array.isArray(after)) return [path || '(the whole document)'];
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  const child = (key: string) => (Array.isArray(before) ? `${path}[${key}]` : path ? `${path}.${key}` : key);
  return keys.flatMap((key) => changedPaths(before[key], after[key], child(key)));
}

/** The `format` a JSON text declares at its top level (undefined when it is not a JSON object): for dispatch before a full parse. */
export function declaredFormat(text: string): unknown {
  try {
    const json = JSON.parse(text) as { format?: unknown } | null;
    return typeof json === 'object' && json !== null ? json.format : undefined;
  } catch {
    return undefined;
  }
}
