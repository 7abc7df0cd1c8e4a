/** The most a scratch buffer keeps between uses; a larger request gets a buffer of its own. */
export const SCRATCH_KEPT_BYTES = 1024 * 1024;

/**
 * A buffer reused from one use to the next, for bytes that become something else (a string, a
 * parsed object) before the next use. A fresh buffer for each received object is an allocation
 * outside V8's heap that the process keeps resident long after it is freed (PERF B10: 100,000
 * of them in one list). It grows by doubling and keeps at most SCRATCH_KEPT_BYTES.
 */
export class ScratchBuffer {
  private buffer: Buffer | undefined;

  constructor(private readonly initialBytes = 4096) {}

  /** A buffer of at least `size` bytes; valid until the next call. */
  take(size: number): Buffer {
    if (this.buffer && size <= this.buffer.length) return this.buffer;
    let length = this.buffer?.length ?? this.initialBytes;
    while (length < size) length *= 2;
    if (length > SCRATCH_KEPT_BYTES) return Buffer.allocUnsafeSlow(size);
    this.buffer = Buffer.allocUnsafeSlow(length);
    return this.buffer;
  }
}
