/**
 * CBOR request bodies → the JSON form of the object, with kube-apiserver v1.32's decoding rules (the
 * DecOptions k8s.io/apimachinery gives fxamacker/cbor). After the well-formedness pass (wellformed.ts):
 * duplicate map keys, text strings that are not UTF-8, simple values other than false/true/null, integers
 * outside int64 and map keys that cannot be strings are refused; text and byte strings both read as strings;
 * tags are transparent except the self-described tag (skipped), 21-23 ("expected base64url / base64 / hex":
 * byte strings inside read as that text) and 0/1 (timestamps, read as RFC 3339 text where no Go type says
 * otherwise).
 *
 * The kind's schema stands in for kube's Go types: a Go `[]byte` field (`format: byte`) takes a tagged byte
 * string as raw bytes and an untagged one as base64 text (as JSON does), and comes out as base64 text;
 * entries of a Go struct (a schema with properties) that match no field are read leniently, because kube
 * skips them unread, and integer keys there are ignored. Without a schema the body is read as kube reads
 * unstructured content (custom resources, apply patches).
 */
import type { Schema } from '../../api/index.js';
import { CborDecodeError, majorTypeNames } from './errors.js';
import { fromFloat16 } from './float16.js';
import { checkWellFormed } from './wellformed.js';

const maxInt64 = 2n ** 63n - 1n;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const looseUtf8 = new TextDecoder('utf-8', { ignoreBOM: true });

/** How a position is read; `lenient` is a struct entry kube skips without looking (only well-formedness counts). */
type Mode = 'any' | 'typed' | 'lenient';

/** An "expected later encoding" tag in force: 21 base64url, 22 base64, 23 hex. */
type Expected = 21 | 22 | 23 | undefined;

interface Ctx {
  schema: Schema | undefined;
  mode: Mode;
  expected: Expected;
}

const fail = (detail: string): CborDecodeError => new CborDecodeError(detail);

function typeError(major: number, goType: string, why?: string): CborDecodeError {
  return fail(
    `cbor: cannot unmarshal ${majorTypeNames[major]} into Go value of type ${goType}${why ? ` (${why})` : ''}`,
  );
}

/** Map keys come from the input: `__proto__` must stay an ordinary key. */
function setKey(map: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(map, key, { value, enumerable: true, writable: true, configurable: true });
}

function isBytesSchema(schema: Schema | undefined): boolean {
  return schema?.type === 'string' && schema.format === 'byte';
}

function isStruct(schema: Schema | undefined): boolean {
  return !!schema?.properties && !schema['x-kubernetes-preserve-unknown-fields'];
}

const base64Alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const base64Value = new Int16Array(256).fill(-1);
for (let i = 0; i < 64; i++) base64Value[base64Alphabet.charCodeAt(i)] = i;
const isLineBreak = (b: number) => b === 0x0a || b === 0x0d;

/**
 * Go's base64.StdEncoding.Decode: padded, line breaks skipped, and on bad input the offset Go's
 * CorruptInputError names.
 */
function base64Bytes(src: Uint8Array): Buffer {
  const out: number[] = [];
  const corrupt = (at: number) =>
    fail(`cbor: failed to decode base64 from byte string: illegal base64 data at input byte ${at}`);
  let si = 0;
  for (;;) {
    const quantum: number[] = [];
    let end = false;
    for (let j = 0; j < 4; j++) {
      if (si === src.length) {
        if (j === 0) return Buffer.from(out);
        throw corrupt(si - j);
      }
      const c = src[si++];
      const v = base64Value[c];
      if (v >= 0) {
        quantum.push(v);
        continue;
      }
      if (isLineBreak(c)) {
        j--;
        continue;
      }
      if (c !== 0x3d || j < 2) throw corrupt(si - 1);
      if (j === 2) {
        while (si < src.length && isLineBreak(src[si])) si++;
        if (si === src.length) throw corrupt(src.length);
        if (src[si] !== 0x3d) throw corrupt(si - 1);
        si++;
      }
      while (si < src.length && isLineBreak(src[si])) si++;
      if (si < src.length) throw corrupt(si);
      end = true;
      break;
    }
    const bits = quantum.reduce((acc, v) => (acc << 6) | v, 0) << (6 * (4 - quantum.length));
    for (let k = 0; k < quantum.length - 1; k++) out.push((bits >> (16 - 8 * k)) & 0xff);
    if (end) return Buffer.from(out);
  }
}

function encodeExpected(bytes: Uint8Array, expected: 21 | 22 | 23): string {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  if (expected === 21) return b.toString('base64url');
  if (expected === 22) return b.toString('base64');
  return b.toString('hex');
}

const rfc3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** Go's time.Parse(RFC3339) then MarshalText: fraction without trailing zeros, `Z` for a zero offset. */
function normalizeRfc3339(text: string): string {
  const m = rfc3339.exec(text);
  const [y, mo, d, h, mi, s] = (m ?? []).slice(1, 7).map(Number);
  const date = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  const inRange = date.getUTCDate() === d && date.getUTCMonth() === mo - 1 && h < 24 && mi < 60 && s < 60;
  if (!m || !inRange)
    throw fail(
      `cbor: cannot set ${text} for time.Time: parsing time "${text}" as "2006-01-02T15:04:05Z07:00"`,
    );
  const frac = (m[7] ?? '').slice(0, 10).replace(/\.?0+$/, '');
  const zone = m[8] === '+00:00' || m[8] === '-00:00' ? 'Z' : m[8];
  return `${text.slice(0, 19)}${frac}${zone}`;
}

/** Seconds since the epoch (tag 1) as Go's UTC RFC3339Nano text (the fraction truncated to nanoseconds). */
function epochText(seconds: number): string {
  const whole = Math.trunc(seconds);
  const nanos = Math.trunc((seconds - whole) * 1e9);
  const date = new Date(whole * 1000 + (nanos < 0 ? -1000 : 0));
  const year = date.getUTCFullYear();
  if (Number.isNaN(year) || year < 0 || year > 9999)
    throw fail(
      'cbor: decoded time cannot be represented in RFC3339 format with sub-second precision: ' +
        'Time.MarshalText: year outside of range [0,9999]',
    );
  const ns = nanos < 0 ? 1e9 + nanos : nanos;
  const frac = ns === 0 ? '' : `.${String(ns).padStart(9, '0').replace(/0+$/, '')}`;
  return `${date.toISOString().slice(0, 19)}${frac}Z`;
}

class Reader {
  private readonly view: DataView;
  off = 0;
  /** still before the outer map's first key: its keys are also read by kube's apiVersion/kind pass */
  private outer = true;

  constructor(private readonly data: Uint8Array) {
    this.view = new DataView(data.buffer, data.byteOffset, data.length);
  }

  /** the argument of the head at `off`, as a bigint when it does not fit a safe integer */
  private head(): { major: number; ai: number; arg: number | bigint } {
    const initial = this.data[this.off++];
    const major = initial >>> 5;
    const ai = initial & 0x1f;
    let arg: number | bigint = ai;
    if (ai === 24) arg = this.data[this.off];
    else if (ai === 25) arg = this.view.getUint16(this.off);
    else if (ai === 26) arg = this.view.getUint32(this.off);
    else if (ai === 27) {
      const big = this.view.getBigUint64(this.off);
      arg = big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big;
    }
    this.off += ai === 24 ? 1 : ai === 25 ? 2 : ai === 26 ? 4 : ai === 27 ? 8 : 0;
    return { major, ai, arg };
  }

  private peekMajor(): number {
    return this.data[this.off] >>> 5;
  }

  private atBreak(): boolean {
    if (this.data[this.off] !== 0xff) return false;
    this.off++;
    return true;
  }

  /** The bytes of a (possibly chunked) string whose head is at `off`. */
  private stringBytes(): Uint8Array {
    const h = this.head();
    if (h.ai !== 31) {
      const n = Number(h.arg);
      this.off += n;
      return this.data.subarray(this.off - n, this.off);
    }
    const parts: Uint8Array[] = [];
    while (!this.atBreak()) parts.push(this.stringBytes());
    return Buffer.concat(parts);
  }

  private text(mode: Mode): string {
    if (mode === 'lenient') return looseUtf8.decode(this.stringBytes());
    const h = this.data[this.off];
    if ((h & 0x1f) !== 31) {
      try {
        return strictUtf8.decode(this.stringBytes());
      } catch {
        throw fail('cbor: invalid UTF-8 string');
      }
    }
    // chunks are checked one by one: a character split across chunks is invalid
    this.off++;
    let out = '';
    while (!this.atBreak()) out += this.text(mode);
    return out;
  }

  private skip(): void {
    const h = this.head();
    const n = Number(h.arg);
    if (h.ai === 31 && h.major >= 2 && h.major <= 5) {
      while (!this.atBreak()) this.skip();
      return;
    }
    if (h.major === 2 || h.major === 3) this.off += n;
    else if (h.major === 4) for (let i = 0; i < n; i++) this.skip();
    else if (h.major === 5) for (let i = 0; i < 2 * n; i++) this.skip();
    else if (h.major === 6) this.skip();
  }

  /** One data item, read as `ctx` says. */
  value(ctx: Ctx): unknown {
    const major = this.peekMajor();
    switch (major) {
      case 0:
      case 1:
        return this.integer(ctx.mode);
      case 2:
        return this.byteString(ctx);
      case 3:
        if (isBytesSchema(ctx.schema) && ctx.mode !== 'lenient') {
          this.skip();
          throw typeError(3, '[]uint8');
        }
        return this.text(ctx.mode);
      case 4:
        return this.array(ctx);
      case 5:
        return this.map(ctx);
      case 6:
        return this.tagged(ctx);
    }
    return this.simple(ctx.mode);
  }

  private integer(mode: Mode): number {
    const { major, arg } = this.head();
    if (typeof arg === 'number') return major === 0 ? arg : -1 - arg;
    if (arg > maxInt64 && mode !== 'lenient') {
      const shown = major === 0 ? `${arg}` : `${-1n - arg}`;
      throw typeError(major, 'int64', `${shown} overflows Go's int64`);
    }
    return Number(major === 0 ? arg : -1n - arg);
  }

  private byteString(ctx: Ctx): string {
    const bytes = this.stringBytes();
    if (isBytesSchema(ctx.schema) && ctx.mode !== 'lenient') {
      // inside an "expected encoding" tag the bytes are raw; otherwise they are base64 text, as in JSON
      const raw = ctx.expected ? Buffer.from(bytes) : base64Bytes(bytes);
      return raw.toString('base64');
    }
    return ctx.expected ? encodeExpected(bytes, ctx.expected) : looseUtf8.decode(bytes);
  }

  private simple(mode: Mode): unknown {
    const { ai, arg } = this.head();
    if (ai === 25) return fromFloat16(arg as number);
    if (ai === 26) return this.view.getFloat32(this.off - 4);
    if (ai === 27) return this.view.getFloat64(this.off - 8);
    if (arg === 20) return false;
    if (arg === 21) return true;
    if (arg === 22 || mode === 'lenient') return null;
    throw fail(
      `cbor: data item of cbor type primitives is not accepted by protocol: simple value ${arg} is not recognized`,
    );
  }

  private array(ctx: Ctx): unknown[] {
    const h = this.head();
    const out: unknown[] = [];
    const item = childCtx(ctx, ctx.schema?.items);
    if (h.ai === 31) while (!this.atBreak()) out.push(this.value(item));
    else for (let i = 0; i < Number(h.arg); i++) out.push(this.value(item));
    return out;
  }

  private tagged(ctx: Ctx): unknown {
    const tagStart = this.off;
    const { arg: tag } = this.head();
    const content = this.data[this.off];
    const contentMajor = content >>> 5;
    if (ctx.mode !== 'lenient') {
      if (tag === 0 && contentMajor !== 3) {
        this.off = tagStart;
        this.skip();
        throw fail(`cbor: tag number 0 must be followed by text string, got ${majorTypeNames[contentMajor]}`);
      }
      if (tag === 1 && contentMajor > 1 && (content < 0xf9 || content > 0xfb)) {
        this.off = tagStart;
        this.skip();
        throw fail(
          `cbor: tag number 1 must be followed by integer or floating-point number, got ${majorTypeNames[contentMajor]}`,
        );
      }
    }
    if (tag === 21 || tag === 22 || tag === 23) return this.value({ ...ctx, expected: tag });
    // timestamps become text where the Go type is interface{} (unstructured); a Go string takes tag 0's text
    if (ctx.mode === 'any' && (tag === 0 || tag === 1)) {
      const v = this.value(ctx);
      return typeof v === 'string' ? normalizeRfc3339(v) : epochText(v as number);
    }
    return this.value(ctx);
  }

  /**
   * kube first reads apiVersion and kind (a Go struct) from the outer item, so an outer item that is not a map
   * (or null) fails there, as do outer keys that are duplicates, invalid text or of a type no field name has.
   */
  checkOuterItem(): void {
    let off = this.off;
    while (this.data[off] >>> 5 === 6) {
      const ai = this.data[off] & 0x1f;
      off += 1 + (ai === 24 ? 1 : ai === 25 ? 2 : ai === 26 ? 4 : ai === 27 ? 8 : 0);
    }
    const major = this.data[off] >>> 5;
    if (major !== 5 && this.data[off] !== 0xf6)
      throw new CborDecodeError(
        `cbor: cannot unmarshal ${majorTypeNames[major]} into Go value of type v1.TypeMeta`,
        true,
      );
  }

  private map(ctx: Ctx): Record<string, unknown> {
    const outer = this.outer;
    this.outer = false;
    const h = this.head();
    const count = h.ai === 31 ? Infinity : Number(h.arg);
    const struct = isStruct(ctx.schema) && ctx.mode !== 'lenient';
    const out: Record<string, unknown> = {};
    const seen = new Set<string>();
    for (let i = 0; i < count && !(h.ai === 31 && this.atBreak()); i++) {
      const key = this.key(ctx, struct, outer);
      if (key === undefined) {
        this.skip();
        continue;
      }
      const dupKey = typeof key === 'number' ? `\u0000${key}` : key;
      if (seen.has(dupKey) && ctx.mode !== 'lenient')
        throw new CborDecodeError(`cbor: found duplicate map key "${key}" at map element index ${i}`, outer);
      seen.add(dupKey);
      if (typeof key === 'number') {
        // an integer key matches no field of a Go struct: skipped, like any unknown field
        this.skip();
        continue;
      }
      setKey(out, key, this.value(this.entryCtx(ctx, key, struct)));
    }
    return out;
  }

  private entryCtx(ctx: Ctx, key: string, struct: boolean): Ctx {
    const schema = ctx.schema;
    const prop = schema?.properties?.[key];
    if (prop) return childCtx(ctx, prop);
    if (typeof schema?.additionalProperties === 'object') return childCtx(ctx, schema.additionalProperties);
    // kube skips an entry that matches no field of a Go struct without looking into it
    return struct ? { schema: undefined, mode: 'lenient', expected: ctx.expected } : childCtx(ctx, undefined);
  }

  private key(ctx: Ctx, struct: boolean, outer: boolean): string | number | undefined {
    const major = this.peekMajor();
    try {
      return struct ? this.structKey() : this.mapKey(ctx);
    } catch (e) {
      // the apiVersion/kind pass reads the outer keys as field names: integers pass there, other types fail
      if (outer && e instanceof CborDecodeError && (struct || major > 1))
        throw new CborDecodeError(e.detail, true);
      throw e;
    }
  }

  /** A key of a Go struct: a text or byte string (a field name) or an integer (never a field here). */
  private structKey(): string | number {
    const major = this.peekMajor();
    if (major === 3) return this.text('typed');
    if (major === 2) return looseUtf8.decode(this.stringBytes());
    if (major <= 1) return this.integer('typed');
    this.skip();
    throw typeError(
      major,
      'string',
      `map key is of type ${majorTypeNames[major]} and cannot be used to match struct field name`,
    );
  }

  /** A key of a Go map[string]T (and of unstructured maps): anything that decodes into a Go string. */
  private mapKey(ctx: Ctx): string | undefined {
    let expected = ctx.expected;
    while (this.peekMajor() === 6) {
      const { arg: tag } = this.head();
      if (tag === 21 || tag === 22 || tag === 23) expected = tag;
    }
    const major = this.peekMajor();
    if (major === 3) return this.text(ctx.mode);
    if (major === 2) {
      const bytes = this.stringBytes();
      return expected ? encodeExpected(bytes, expected) : looseUtf8.decode(bytes);
    }
    if (ctx.mode === 'lenient') {
      this.skip();
      return undefined;
    }
    // null leaves a Go string as it is: the key is ""
    if (this.data[this.off] === 0xf6) {
      this.off++;
      return '';
    }
    this.skip();
    throw typeError(major, 'string');
  }
}

/** The context of a value inside `parent`, following `schema`. */
function childCtx(parent: Ctx, schema: Schema | undefined): Ctx {
  if (parent.mode === 'lenient') return parent;
  const mode = schema ? modeOf(schema) : 'any';
  return { schema: mode === 'any' ? undefined : schema, mode, expected: parent.expected };
}

function modeOf(schema: Schema): Mode {
  if (schema['x-kubernetes-preserve-unknown-fields'] && !schema.properties) return 'any';
  if (schema.properties || typeof schema.additionalProperties === 'object' || schema.items) return 'typed';
  return schema.type ? 'typed' : 'any';
}

/**
 * Decodes one CBOR data item (a request body) into its JSON form. `schema` is the kind's schema for kinds
 * kube decodes into Go types (the built-in kinds); leave it out for custom resources and apply patches.
 * Throws CborDecodeError (a 400 ApiError) for anything kube refuses.
 */
export function decodeCbor(data: Uint8Array, schema?: Schema): unknown {
  checkWellFormed(data);
  const r = new Reader(data);
  r.checkOuterItem();
  const mode: Mode = schema ? modeOf(schema) : 'any';
  return r.value({ schema: mode === 'any' ? undefined : schema, mode, expected: undefined });
}
