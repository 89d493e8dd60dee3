/**
 * Physical line numbers in a byte stream read in order, for readers whose parser reports
 * byte offsets (csv-parse miscounts lines when quoted fields contain CRLF). CRLF, LF and a
 * lone CR each end a line, also when a CRLF is split across chunks. Holds only the chunks
 * not yet counted. Line breaks are found with `indexOf` (native), each chunk's next LF and CR
 * remembered, so a chunk is searched once however many rows it holds.
 */
const LF = 10;
const CR = 13;

export class LineTracker {
  private readonly chunks: Buffer[] = [];
  private index = 0;
  private offset = 0;
  private line = 1;
  private lastCR = false;
  /** The first chunk's next LF and CR at or after `index` (its length when none is left). */
  private next = { [LF]: -1, [CR]: -1 };

  add(chunk: Buffer): void {
    this.chunks.push(chunk);
  }

  /** The line of the first byte at or after `offset` that is not a line break (a row's first line). */
  firstContentLine(offset: number): number {
    this.countTo(offset);
    for (let b = this.peek(); b === CR || b === LF; b = this.peek()) this.countTo(this.offset + 1);
    return this.line;
  }

  /** The bytes from where the last `firstContentLine` stopped up to `offset` (a multi-line row's text), without counting them. */
  bytesTo(offset: number): Buffer {
    const parts: Buffer[] = [];
    let index = this.index;
    for (let k = 0, left = offset - this.offset; k < this.chunks.length && left > 0; k++, index = 0) {
      const part = this.chunks[k].subarray(index, index + left);
      parts.push(part);
      left -= part.length;
    }
    return Buffer.concat(parts);
  }

  private peek(): number | undefined {
    while (this.chunks.length > 0 && this.index >= this.chunks[0].length) this.drop();
    return this.chunks[0]?.[this.index];
  }

  private drop(): void {
    this.chunks.shift();
    this.index = 0;
    this.next = { [LF]: -1, [CR]: -1 };
  }

  /** Position of the next `byte` at or after `from` in the first chunk (`from` never moves back within a chunk). */
  private nextOf(chunk: Buffer, byte: typeof LF | typeof CR, from: number): number {
    if (this.next[byte] < from) {
      const at = chunk.indexOf(byte, from);
      this.next[byte] = at === -1 ? chunk.length : at;
    }
    return this.next[byte];
  }

  /** Counts the line breaks of every byte before `offset`. */
  private countTo(offset: number): void {
    while (this.offset < offset && this.chunks.length > 0) {
      const chunk = this.chunks[0];
      const end = Math.min(chunk.length, this.index + (offset - this.offset));
      const start = this.index;
      // Every CR ends a line, and every LF but the one of a CRLF.
      for (let i = this.nextOf(chunk, CR, start); i < end; i = this.nextOf(chunk, CR, i + 1)) this.line++;
      for (let i = this.nextOf(chunk, LF, start); i < end; i = this.nextOf(chunk, LF, i + 1)) if (!(i === start ? this.lastCR : chunk[i - 1] === CR)) this.line++;
      if (end > start) this.lastCR = chunk[end - 1] === CR;
      this.offset += end - this.index;
      this.index = end;
      if (end === chunk.length) this.drop();
    }
  }
}
