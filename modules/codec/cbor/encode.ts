/**
 * JSON-shaped objects → CBOR exactly as kube-apiserver v1.32 encodes them in its deterministic mode (the
 * options k8s.io/apimachinery gives fxamacker/cbor): every string, map key included, is a byte string; map
 * keys are sorted bytewise by their encoding (so shorter keys first); integers and lengths take their shortest
 * form; floats the narrowest width that keeps their value; definite lengths only; the whole object enclosed in
 * the self-described tag.
 *
 * The kind's schema says what the JSON form cannot: fields that are Go `[]byte` (`format: byte`, base64 text
 * in JSON) are written as their raw bytes inside tag 22 ("expected base64"), and `number` fields are Go
 * floats, written as floats even when integral. Without a schema the value is encoded as kube encodes
 * unstructured content (custom resources): strings stay strings, integral numbers are integers.
 */
import type { Schema } from '../../api/index.js';
import { toFloat16Exact } from './float16.js';
import { selfDescribedPrefix } from './media-types.js';
import { withRoom } from '../grow.js';

const maxInt64 = 2n ** 63n - 1n;

class Writer {
  private buf = new Uint8Array(1024);
  private view = new DataView(this.buf.buffer);
  len = 0;

  private room(n: number): void {
    const next = withRoom(this.buf, this.len, n);
    if (next === this.buf) return;
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  byte(b: number): void {
    this.room(1);
    this.buf[this.len++] = b;
  }

  bytes(b: Uint8Array): void {
    this.room(b.length);
    this.buf.set(b, this.len);
    this.len += b.length;
  }

  /** A data item's head: major type and argument in the shortest form. */
  head(major: number, arg: number | bigint): void {
    const m = major << 5;
    if (typeof arg === 'bigint' || arg > 0xffffffff) {
      this.room(9);
      this.buf[this.len] = m | 27;
      this.view.setBigUint64(this.len + 1, BigInt(arg));
      this.len += 9;
    } else if (arg < 24) {
      this.byte(m | arg);
    } else if (arg <= 0xff) {
      this.byte(m | 24);
      this.byte(arg);
    } else if (arg <= 0xffff) {
      this.room(3);
      this.buf[this.len] = m | 25;
      this.view.setUint16(this.len + 1, arg);
      this.len += 3;
    } else {
      this.room(5);
      this.buf[this.len] = m | 26;
      this.view.setUint32(this.len + 1, arg);
      this.len += 5;
    }
  }

  float(value: number): void {
    if (!Number.isFinite(value)) throw new Error(`cbor: unsupported value: ${value}`);
    const half = toFloat16Exact(value);
    if (half !== undefined) {
      this.room(3);
      this.buf[this.len] = 0xf9;
      this.view.setUint16(this.len + 1, half);
      this.len += 3;
    } else if (Math.fround(value) === value) {
      this.room(5);
      this.buf[this.len] = 0xfa;
      this.view.setFloat32(this.len + 1, value);
      this.len += 5;
    } else {
      this.room(9);
      this.buf[this.len] = 0xfb;
      this.view.setFloat64(this.len + 1, value);
      this.len += 9;
    }
  }

  result(): Uint8Array {
    return this.buf.slice(0, this.len);
  }
}

const utf8 = (s: string): Buffer => Buffer.from(s, 'utf8');

function writeNumber(w: Writer, n: number, float: boolean): void {
  if (float || !Number.isInteger(n)) return w.float(n);
  // integers beyond int64 exist only as floats in kube (JSON numbers too large for int64 decode to float64)
  const big = BigInt(n);
  if (big > maxInt64 || big < -maxInt64 - 1n) return w.float(n);
  if (n >= 0) w.head(0, Number.isSafeInteger(n) ? n : big);
  else w.head(1, Number.isSafeInteger(n) ? -1 - n : -1n - big);
}

/** The schema a map entry's value follows: its property, else the schema of additional properties. */
function entrySchema(schema: Schema | undefined, key: string): Schema | undefined {
  if (!schema) return undefined;
  const prop = schema.properties?.[key];
  if (prop) return prop;
  return typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
}

function isBytes(schema: Schema | undefined): boolean {
  return schema?.type === 'string' && schema.format === 'byte';
}

/** Map keys in kube's order: bytewise by their encoded form, which for byte strings is shorter first. */
function compareKeys(a: Buffer, b: Buffer): number {
  return a.length - b.length || Buffer.compare(a, b);
}

function writeValue(w: Writer, value: unknown, schema: Schema | undefined): void {
  if (value === null || value === undefined) return w.byte(0xf6);
  switch (typeof value) {
    case 'boolean':
      return w.byte(value ? 0xf5 : 0xf4);
    case 'number':
      return writeNumber(w, value, schema?.type === 'number');
    case 'string': {
      const b = isBytes(schema) ? Buffer.from(value, 'base64') : utf8(value);
      if (isBytes(schema)) w.byte(0xd6); // tag 22: the bytes read back as base64 text
      w.head(2, b.length);
      return w.bytes(b);
    }
    case 'object':
      break;
    default:
      throw new Error(`cbor: cannot encode a ${typeof value}`);
  }
  if (Array.isArray(value)) {
    w.head(4, value.length);
    for (const item of value) writeValue(w, item === undefined ? null : item, schema?.items);
    return;
  }
  const entries: [Buffer, string, unknown][] = [];
  for (const [key, v] of Object.entries(value)) if (v !== undefined) entries.push([utf8(key), key, v]);
  entries.sort((a, b) => compareKeys(a[0], b[0]));
  w.head(5, entries.length);
  for (const [keyBytes, key, v] of entries) {
    w.head(2, keyBytes.length);
    w.bytes(keyBytes);
    writeValue(w, v, entrySchema(schema, key));
  }
}

/**
 * One object (or any JSON value) as kube writes it: the self-described tag, then the value. `schema` is the
 * kind's schema for kinds kube serves from Go types (the built-in kinds); leave it out for custom resources.
 */
export function encodeCbor(value: unknown, schema?: Schema): Uint8Array {
  const w = new Writer();
  w.bytes(selfDescribedPrefix);
  writeValue(w, value, schema);
  return w.result();
}

/** The schema of a `<Kind>List` of objects that follow `itemSchema` (only `items` needs one). */
export function cborListSchema(itemSchema: Schema): Schema {
  return { type: 'object', properties: { items: { type: 'array', items: itemSchema } } };
}
