/**
 * The protobuf wire format, as much of it as Kubernetes messages use: varints (int32, int64, bool, enums as
 * int), length-delimited fields (strings, bytes, messages, packed scalars) and fixed64 doubles. Any fault in
 * the input is an ApiError 400 with the text Go's generated unmarshalers use, never a crash.
 */
import { ApiError } from '../../api/index.js';
import { withRoom } from '../grow.js';

export const WireType = {
  Varint: 0,
  Fixed64: 1,
  Bytes: 2,
  StartGroup: 3,
  EndGroup: 4,
  Fixed32: 5,
} as const;
export type WireType = (typeof WireType)[keyof typeof WireType];

export function malformed(message: string): ApiError {
  return ApiError.badRequest(message);
}

const utf8 = new TextDecoder('utf-8');
const utf8Encoder = new TextEncoder();

export class WireReader {
  pos: number;

  constructor(
    readonly buf: Uint8Array,
    start = 0,
    readonly end = buf.length,
  ) {
    this.pos = start;
  }

  done(): boolean {
    return this.pos >= this.end;
  }

  /** A varint as an unsigned 64-bit value. */
  varint(): bigint {
    let result = 0n;
    for (let shift = 0n; shift < 70n; shift += 7n) {
      if (this.pos >= this.end) throw malformed('unexpected EOF');
      const b = this.buf[this.pos++];
      result |= BigInt(b & 0x7f) << shift;
      if (b < 0x80) return BigInt.asUintN(64, result);
    }
    throw malformed('proto: integer overflow');
  }

  /** A varint small enough for a JavaScript number (tags and lengths); larger ones are malformed. */
  smallVarint(): number {
    let result = 0;
    let scale = 1;
    // seven bytes hold 49 bits: exact as a number; a longer tag or length is never valid here
    for (let i = 0; i < 7; i++) {
      if (this.pos >= this.end) throw malformed('unexpected EOF');
      const b = this.buf[this.pos++];
      result += (b & 0x7f) * scale;
      if (b < 0x80) return result;
      scale *= 128;
    }
    throw malformed('proto: integer overflow');
  }

  tag(): { field: number; wireType: number } {
    const t = this.smallVarint();
    const field = Math.floor(t / 8);
    const wireType = t & 7;
    if (field <= 0 || field > 0x1fffffff)
      throw malformed(`proto: illegal tag ${field} (wire type ${wireType})`);
    return { field, wireType };
  }

  /** The extent of a length-delimited value; the reader moves past it. */
  span(): { start: number; end: number } {
    const len = this.smallVarint();
    const start = this.pos;
    const end = start + len;
    if (end > this.end) throw malformed('unexpected EOF');
    this.pos = end;
    return { start, end };
  }

  bytes(): Uint8Array {
    const { start, end } = this.span();
    return this.buf.subarray(start, end);
  }

  string(): string {
    return utf8.decode(this.bytes());
  }

  fixed64(): DataView {
    if (this.pos + 8 > this.end) throw malformed('unexpected EOF');
    const view = new DataView(this.buf.buffer, this.buf.byteOffset + this.pos, 8);
    this.pos += 8;
    return view;
  }

  /** Moves past a field of an unknown number, as Go's skip does (groups included). */
  skip(wireType: number, depth = 0): void {
    if (depth > 100) throw malformed('proto: nested groups too deep');
    switch (wireType) {
      case WireType.Varint:
        this.varint();
        return;
      case WireType.Fixed64:
        this.advance(8);
        return;
      case WireType.Bytes:
        this.span();
        return;
      case WireType.Fixed32:
        this.advance(4);
        return;
      case WireType.StartGroup:
        for (;;) {
          if (this.done()) throw malformed('unexpected EOF');
          const t = this.tag();
          if (t.wireType === WireType.EndGroup) return;
          this.skip(t.wireType, depth + 1);
        }
      case WireType.EndGroup:
        throw malformed('proto: unexpected end group');
      default:
        throw malformed(`proto: illegal wireType ${wireType}`);
    }
  }

  private advance(n: number): void {
    if (this.pos + n > this.end) throw malformed('unexpected EOF');
    this.pos += n;
  }
}

/** Appends to a growing buffer; `message` writes a length-prefixed submessage without measuring it first. */
export class WireWriter {
  private buf = new Uint8Array(256);
  private len = 0;

  finish(): Uint8Array {
    return this.buf.slice(0, this.len);
  }

  private reserve(n: number): void {
    this.buf = withRoom(this.buf, this.len, n);
  }

  /** A varint of a non-negative number below 2^53, or of a bigint taken as 64-bit two's complement. */
  varint(value: number | bigint): void {
    if (typeof value === 'number' && value >= 0 && value <= 0x7fffffff) {
      this.reserve(5);
      let v = value;
      while (v > 0x7f) {
        this.buf[this.len++] = (v & 0x7f) | 0x80;
        v >>>= 7;
      }
      this.buf[this.len++] = v;
      return;
    }
    let v = BigInt.asUintN(64, BigInt(value));
    this.reserve(10);
    while (v > 0x7fn) {
      this.buf[this.len++] = Number(v & 0x7fn) | 0x80;
      v >>= 7n;
    }
    this.buf[this.len++] = Number(v);
  }

  tag(field: number, wireType: WireType): void {
    this.varint(field * 8 + wireType);
  }

  raw(bytes: Uint8Array): void {
    this.reserve(bytes.length);
    this.buf.set(bytes, this.len);
    this.len += bytes.length;
  }

  bytes(field: number, bytes: Uint8Array): void {
    this.tag(field, WireType.Bytes);
    this.varint(bytes.length);
    this.raw(bytes);
  }

  string(field: number, value: string): void {
    this.bytes(field, utf8Encoder.encode(value));
  }

  double(field: number, value: number): void {
    this.tag(field, WireType.Fixed64);
    this.reserve(8);
    new DataView(this.buf.buffer, this.len, 8).setFloat64(0, value, true);
    this.len += 8;
  }

  /** Writes field `field` as a submessage whose content `body` writes into this same writer. */
  message(field: number, body: (w: WireWriter) => void): void {
    const inner = new WireWriter();
    body(inner);
    this.bytes(field, inner.finish());
  }
}
