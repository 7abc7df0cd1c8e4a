/** The default bound on one list item (and on the list's text outside its items): 64 MiB. */
export const DEFAULT_MAX_ITEM_BYTES = 64 * 1024 * 1024;

/** A list item or the list's envelope exceeded the byte bound. */
export class ListTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`a list item is larger than ${Math.round(maxBytes / (1024 * 1024))} MiB`);
    this.name = 'ListTooLargeError';
  }
}

/**
 * Splits a LIST response body, as it streams in, into its items, so that a large unpaginated
 * list is never held as one text next to its parsed copy: each item's bytes are handed to
 * `onItem` as soon as they are complete and then dropped. The rest of the body (kind,
 * apiVersion, metadata) is kept, with `"items":[]`, and returned by `end()` as text.
 *
 * Invariants: only bytes of the item being read are held (never more than `maxBytes` of them);
 * JSON strings are tracked, so braces inside strings do not count; the body must be a JSON
 * object whose `items` key holds an array of objects (anything else ends up in the envelope,
 * which JSON.parse then judges).
 */
export class ListStreamParser {
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** Collecting the text of the last string seen at depth 1 (a candidate key). */
  private keyStart = -1;
  private keyParts: string[] = [];
  private lastKey = '';
  /** Inside the `items` array (depth 2 = between items, deeper = inside one). */
  private inItems = false;
  private itemParts: Buffer[] = [];
  private itemBytes = 0;
  private envelope: Buffer[] = [];
  private envelopeBytes = 0;

  constructor(
    private readonly onItem: (buf: Buffer, start: number, end: number) => void,
    private readonly maxBytes = DEFAULT_MAX_ITEM_BYTES,
  ) {}

  push(chunk: Buffer): void {
    let envelopeFrom = this.inItems ? -1 : 0;
    let itemFrom = this.inItems && this.depth > 2 ? 0 : -1;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i];
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === 0x5c) this.escaped = true;
        else if (c === 0x22) {
          this.inString = false;
          if (this.depth === 1 && !this.inItems) this.endKey(chunk, i);
        }
        continue;
      }
      if (c === 0x22) {
        this.inString = true;
        if (this.depth === 1 && !this.inItems) {
          this.keyStart = i + 1;
          this.keyParts = [];
        }
      } else if (c === 0x7b || c === 0x5b) {
        // { or [
        this.depth++;
        if (c === 0x5b && this.depth === 2 && this.lastKey === 'items' && !this.inItems) {
          this.inItems = true;
          this.addEnvelope(chunk, envelopeFrom, i + 1);
          envelopeFrom = -1;
        } else if (this.inItems && this.depth === 3) {
          itemFrom = i;
        }
      } else if (c === 0x7d || c === 0x5d) {
        // } or ]
        if (this.inItems && this.depth === 3) {
          this.addItem(chunk, itemFrom, i + 1);
          this.flushItem();
          itemFrom = -1;
        } else if (this.inItems && this.depth === 2) {
          this.inItems = false;
          envelopeFrom = i;
        }
        this.depth--;
      }
    }
    if (this.keyStart >= 0 && this.inString) {
      this.keyParts.push(chunk.toString('utf8', this.keyStart));
      this.keyStart = 0;
    }
    if (itemFrom >= 0) this.addItem(chunk, itemFrom, chunk.length);
    if (envelopeFrom >= 0) this.addEnvelope(chunk, envelopeFrom, chunk.length);
  }

  /** The list without its items, as JSON text (`"items":[]`). */
  end(): string {
    return Buffer.concat(this.envelope, this.envelopeBytes).toString('utf8');
  }

  private endKey(chunk: Buffer, quote: number): void {
    if (this.keyStart < 0) return;
    this.keyParts.push(chunk.toString('utf8', this.keyStart, quote));
    this.lastKey = this.keyParts.join('');
    this.keyParts = [];
    this.keyStart = -1;
  }

  private addItem(chunk: Buffer, from: number, to: number): void {
    if (to <= from) return;
    this.itemBytes += to - from;
    if (this.itemBytes > this.maxBytes) throw new ListTooLargeError(this.maxBytes);
    this.itemParts.push(chunk.subarray(from, to));
  }

  private flushItem(): void {
    const buf = this.itemParts.length === 1 ? this.itemParts[0] : Buffer.concat(this.itemParts, this.itemBytes);
    this.itemParts = [];
    this.itemBytes = 0;
    this.onItem(buf, 0, buf.length);
  }

  private addEnvelope(chunk: Buffer, from: number, to: number): void {
    if (from < 0 || to <= from) return;
    this.envelopeBytes += to - from;
    if (this.envelopeBytes > this.maxBytes) throw new ListTooLargeError(this.maxBytes);
    this.envelope.push(chunk.subarray(from, to));
  }
}
