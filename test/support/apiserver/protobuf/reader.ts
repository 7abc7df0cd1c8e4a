/**
 * The protobuf wire format, read field by field: what kube-protobuf.ts decodes objects with and
 * kubectl-descriptors.ts decodes kubectl's FileDescriptorProtos with. Every read checks the
 * buffer's end and throws ProtobufError instead of reading past it.
 */

export class ProtobufError extends Error {}

export class Reader {
  pos = 0;
  constructor(readonly buf: Buffer) {}

  get done(): boolean {
    return this.pos >= this.buf.length;
  }

  varint(): bigint {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      if (this.pos >= this.buf.length) throw new ProtobufError('truncated varint');
      const b = this.buf[this.pos++];
      result |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return result;
      shift += 7n;
      if (shift > 70n) throw new ProtobufError('varint too long');
    }
  }

  bytes(): Buffer {
    const n = Number(this.varint());
    if (this.pos + n > this.buf.length) throw new ProtobufError('truncated field');
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  /** `n` bytes of a fixed-width field (wire types 1 and 5). */
  fixed(n: number): Buffer {
    if (this.pos + n > this.buf.length) throw new ProtobufError('truncated field');
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  skip(wire: number): void {
    if (wire === 0) this.varint();
    else if (wire === 1) this.fixed(8);
    else if (wire === 2) this.bytes();
    else if (wire === 5) this.fixed(4);
    else throw new ProtobufError(`unsupported wire type ${wire}`);
  }
}
