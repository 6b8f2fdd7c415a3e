/**
 * The first pass of kube's CBOR decoding: is the input one complete, well-formed data item within kube's
 * limits? Checked over the whole input before anything is decoded, as fxamacker/cbor does with kube's
 * DecOptions: at most 64 levels of nesting (arrays, maps and nested tags count), at most 1024 elements per
 * array and 1024 pairs per map, indefinite lengths allowed, NaN and infinities refused, bignum tags (2, 3)
 * refused, no bytes after the item.
 */
import { fromFloat16 } from './float16.js';
import { CborDecodeError, majorTypeNames } from './errors.js';

export const limits = { nesting: 64, arrayElements: 1024, mapPairs: 1024 } as const;

/** Thrown when the input ends inside a data item (a stream reader waits for more bytes). */
export class UnexpectedEndError extends CborDecodeError {
  constructor() {
    super('unexpected EOF', true);
  }
}

const fail = (detail: string): CborDecodeError => new CborDecodeError(detail, true);

interface Head {
  major: number;
  ai: number;
  /** the argument; a bigint only when it does not fit a safe integer */
  arg: number | bigint;
  indefinite: boolean;
}

function refuseFloat(value: number): void {
  if (Number.isNaN(value))
    throw fail('cbor: data item of cbor type primitives is not accepted by protocol: floating-point NaN');
  if (!Number.isFinite(value))
    throw fail(
      'cbor: data item of cbor type primitives is not accepted by protocol: floating-point infinity',
    );
}

class Scanner {
  constructor(
    private readonly data: Uint8Array,
    public off: number,
  ) {}

  private need(n: number): void {
    if (this.data.length - this.off < n) throw new UnexpectedEndError();
  }

  head(): Head {
    this.need(1);
    const initial = this.data[this.off++];
    const major = initial >>> 5;
    const ai = initial & 0x1f;
    const view = new DataView(this.data.buffer, this.data.byteOffset + this.off);
    const type = majorTypeNames[major];
    if (ai < 24) return { major, ai, arg: ai, indefinite: false };
    switch (ai) {
      case 24: {
        this.need(1);
        const arg = this.data[this.off++];
        if (major === 7 && arg < 32) throw fail(`cbor: invalid simple value ${arg} for type ${type}`);
        return { major, ai, arg, indefinite: false };
      }
      case 25: {
        this.need(2);
        const arg = view.getUint16(0);
        this.off += 2;
        if (major === 7) refuseFloat(fromFloat16(arg));
        return { major, ai, arg, indefinite: false };
      }
      case 26: {
        this.need(4);
        const arg = view.getUint32(0);
        this.off += 4;
        if (major === 7) refuseFloat(view.getFloat32(0));
        return { major, ai, arg, indefinite: false };
      }
      case 27: {
        this.need(8);
        const big = view.getBigUint64(0);
        this.off += 8;
        if (major === 7) refuseFloat(view.getFloat64(0));
        return {
          major,
          ai,
          arg: big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big,
          indefinite: false,
        };
      }
      case 31:
        if (major === 7) throw fail('cbor: unexpected "break" code');
        if (major === 0 || major === 1 || major === 6)
          throw fail(`cbor: invalid additional information 31 for type ${type}`);
        return { major, ai, arg: 0, indefinite: true };
      default:
        throw fail(`cbor: invalid additional information ${ai} for type ${type}`);
    }
  }

  private length(h: Head): number {
    if (typeof h.arg === 'bigint') {
      if (h.arg > 2n ** 63n - 1n) {
        const type = majorTypeNames[h.major];
        throw fail(`cbor: ${type} length ${h.arg} is too large, causing integer overflow`);
      }
      throw new UnexpectedEndError();
    }
    return h.arg;
  }

  private atBreak(): boolean {
    this.need(1);
    if (this.data[this.off] !== 0xff) return false;
    this.off++;
    return true;
  }

  /** Checks one data item from `off`, returning the deepest nesting level it reaches. */
  item(depth: number): number {
    const h = this.head();
    switch (h.major) {
      case 2:
      case 3:
        if (h.indefinite) return this.chunks(h.major, depth);
        this.skipBytes(this.length(h));
        return depth;
      case 4:
      case 5:
        return this.container(h, depth + 1);
      case 6:
        return this.tagged(h, depth);
    }
    return depth;
  }

  private skipBytes(n: number): void {
    this.need(n);
    this.off += n;
  }

  private chunks(major: number, depth: number): number {
    const type = majorTypeNames[major];
    while (!this.atBreak()) {
      const next = this.data[this.off];
      if (next >>> 5 !== major)
        throw fail(`cbor: wrong element type ${majorTypeNames[next >>> 5]} for indefinite-length ${type}`);
      if ((next & 0x1f) === 31) throw fail(`cbor: indefinite-length ${type} chunk is not definite-length`);
      this.item(depth);
    }
    return depth;
  }

  private container(h: Head, depth: number): number {
    if (depth > limits.nesting) throw fail(`cbor: exceeded max nested level ${limits.nesting}`);
    const isMap = h.major === 5;
    let deepest = depth;
    if (h.indefinite) {
      let i = 0;
      while (!this.atBreak()) {
        deepest = Math.max(deepest, this.item(depth));
        i++;
        if (!isMap && i > limits.arrayElements) throw tooMany(false);
        if (isMap && i % 2 === 0 && i / 2 > limits.mapPairs) throw tooMany(true);
      }
      if (isMap && i % 2 === 1) throw fail('cbor: unexpected "break" code');
      return deepest;
    }
    const n = typeof h.arg === 'bigint' ? Infinity : h.arg;
    if (n > (isMap ? limits.mapPairs : limits.arrayElements)) throw tooMany(isMap);
    for (let i = 0; i < (isMap ? 2 * n : n); i++) deepest = Math.max(deepest, this.item(depth));
    return deepest;
  }

  private tagged(h: Head, depth: number): number {
    let tag = h.arg;
    for (;;) {
      this.need(1);
      if (tag === 2 || tag === 3)
        throw fail('cbor: data item of cbor type tag is not accepted by protocol: bignum');
      if (this.data[this.off] >>> 5 !== 6) break;
      tag = this.head().arg;
      depth++;
      if (depth > limits.nesting) throw fail(`cbor: exceeded max nested level ${limits.nesting}`);
    }
    return this.item(depth);
  }
}

function tooMany(isMap: boolean): CborDecodeError {
  return fail(
    isMap
      ? `cbor: exceeded max number of key-value pairs ${limits.mapPairs} for CBOR map`
      : `cbor: exceeded max number of elements ${limits.arrayElements} for CBOR array`,
  );
}

/**
 * Checks the data item starting at `off` and returns the offset just after it. With `whole`, bytes after the
 * item are an error (a request body holds exactly one item).
 */
export function checkWellFormed(data: Uint8Array, off = 0, whole = true): number {
  if (off >= data.length) throw fail('EOF');
  const s = new Scanner(data, off);
  s.item(0);
  if (whole && s.off !== data.length)
    throw fail(`cbor: ${data.length - s.off} bytes of extraneous data starting at index ${s.off}`);
  return s.off;
}
