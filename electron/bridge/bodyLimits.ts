/**
 * Bounded request bodies for the bridge. Each method has a body limit: 16 MiB for the few
 * that take large input (records, filters and id lists, a document to verify, an anchor
 * copy), 1 MiB for every other. All bodies being received at once share one budget
 * (64 MiB): past it a request is answered 503 at once, so many concurrent large bodies
 * cannot hold the process's memory (40 bodies of 14 MB held 700 MB).
 */
export class BodyLimitError extends Error {
  constructor(message: string, readonly status: 413 | 503) {
    super(message);
  }
}

export interface BodyLimits {
  /** Methods that take large input. */
  largeBody: number;
  /** Every other method. */
  smallBody: number;
  /** All bodies being received together. */
  inFlight: number;
}

export const DEFAULT_BODY_LIMITS: BodyLimits = { largeBody: 16 << 20, smallBody: 1 << 20, inFlight: 64 << 20 };

const LARGE_INPUT = new Set(['certificate.verify', 'ledger.verify']);
const takesLargeInput = (method: string) => method.startsWith('vault.') || LARGE_INPUT.has(method);

/** Reads bodies within the limits; one per bridge. */
export class BodyReader {
  private inFlight = 0;

  constructor(private readonly limits: BodyLimits = DEFAULT_BODY_LIMITS) {}

  async read(req: AsyncIterable<unknown>, method: string): Promise<string> {
    const limit = takesLargeInput(method) ? this.limits.largeBody : this.limits.smallBody;
    const chunks: Buffer[] = [];
    let held = 0; // this body's bytes counted in the shared budget
    try {
      for await (const chunk of req) {
        const bytes = (chunk as Buffer).length;
        if (held + bytes > limit) throw new BodyLimitError(`request body too large for ${method} (limit ${limit >> 10} KiB)`, 413);
        if (this.inFlight + bytes > this.limits.inFlight) throw new BodyLimitError('the bridge is receiving too much at once: try again in a moment', 503);
        held += bytes;
        this.inFlight += bytes;
        chunks.push(chunk as Buffer);
      }
      return Buffer.concat(chunks).toString('utf8');
    } finally {
      this.inFlight -= held;
    }
  }
}
