/**
 * Physical line numbers in a byte stream read in order, for readers whose parser reports
 * byte offsets (csv-parse miscounts lines when quoted fields contain CRLF). CRLF, LF and a
 * lone CR each end a line, also when a CRLF is split across chunks. Holds only the chunks
 * not yet counted.
 */
const LF = 10;
const CR = 13;

export class LineTracker {
  private readonly chunks: Buffer[] = [];
  private index = 0;
  private offset = 0;
  private line = 1;
  private lastCR = false;

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
  }

  /** Counts the line breaks of every byte before `offset`. */
  private countTo(offset: number): void {
    while (this.offset < offset && this.chunks.length > 0) {
      const chunk = this.chunks[0];
      const end = Math.min(chunk.length, this.index + (offset - this.offset));
      let { line, lastCR } = this;
      for (let i = this.index; i < end; i++) {
        const b = chunk[i];
        if (b === LF) {
          if (!lastCR) line++;
          lastCR = false;
        } else {
          if (b === CR) line++;
          lastCR = b === CR;
        }
      }
      [this.line, this.lastCR] = [line, lastCR];
      this.offset += end - this.index;
      this.index = end;
      if (end === chunk.length) this.drop();
    }
  }
}
