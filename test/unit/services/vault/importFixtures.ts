/** Helpers for the importer tests: feed a format reader bytes in chosen chunk sizes and collect its items. */
import type { FormatReader, SourceItem } from '../../../../electron/services/vault/import/importTypes';

/** `bytes` in chunks of `size` bytes (the last may be shorter). */
export async function* chunksOf(bytes: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

export async function readAll(reader: FormatReader, input: string | Buffer, chunkSize = 1 << 16): Promise<SourceItem[]> {
  const items: SourceItem[] = [];
  for await (const item of reader(chunksOf(Buffer.isBuffer(input) ? input : Buffer.from(input), chunkSize))) items.push(item);
  return items;
}

/** Items as `line: values` or `line: !code` for compact expectations. */
export const summary = (items: SourceItem[]) => items.map((i) => ('bad' in i ? `${i.line}: !${i.bad.code}` : `${i.line}: ${JSON.stringify(i.values)}`));
