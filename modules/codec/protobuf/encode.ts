/**
 * JSON form → protobuf, byte for byte as kube's generated marshalers write it: fields in field-number order,
 * Go value fields always (their zero value when the JSON omits them), pointer fields only when set, map
 * entries sorted by key, repeated scalars unpacked (kube's .proto files are proto2 without `packed`).
 *
 * The input is an object the server holds, so a value of the wrong type is a server fault (500).
 */
import { ApiError } from '../../api/index.js';
import type { Schema } from '../../api/index.js';
import { shapeOf, zeroOf, type FieldInfo, type MessageShape, type Shape } from './shape.js';
import { isZeroTimestamp, parseTimestamp } from './time.js';
import { WireType, WireWriter } from './wire.js';

export function encodeProtobufObject(obj: Record<string, unknown>, schema: Schema): Uint8Array {
  const shape = shapeOf(schema);
  if (shape.kind !== 'message')
    throw new Error('encodeProtobufObject needs an object schema with properties');
  const w = new WireWriter();
  writeMessage(w, obj, shape, '');
  return w.finish();
}

function fail(path: string, why: string): never {
  throw ApiError.internal(`unable to encode ${path || 'object'} as protobuf: ${why}`);
}

const join = (path: string, name: string) => (path ? `${path}.${name}` : name);

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function writeMessage(w: WireWriter, obj: unknown, shape: MessageShape, path: string): void {
  if (obj !== undefined && obj !== null && !isRecord(obj)) fail(path, 'expected an object');
  const record = (obj ?? {}) as Record<string, unknown>;
  for (const info of shape.ordered) {
    // an inline-embedded struct: its fields are the record's own, its wire form a nested message
    if (info.embedded) w.message(info.number, (m) => writeMessage(m, record, info.embedded!, path));
    else writeField(w, info, record[info.name], join(path, info.name));
  }
}

function writeField(w: WireWriter, info: FieldInfo, value: unknown, path: string): void {
  const shape = shapeOf(info.schema);
  const n = info.number;
  if (shape.kind === 'unsupported') return;
  if (value === undefined || value === null) {
    // Go leaves nil pointers, slices and maps out; every value field is written, at its zero value
    if (info.pointer || shape.kind === 'array' || shape.kind === 'map') return;
    writeValue(w, n, shape, zeroOf(shape), path);
    return;
  }
  if (shape.kind === 'array') {
    if (!Array.isArray(value)) fail(path, 'expected an array');
    const item = shapeOf(shape.items);
    value.forEach((v, i) => writeValue(w, n, item, v ?? zeroOf(item), `${path}[${i}]`));
    return;
  }
  if (shape.kind === 'map') {
    if (!isRecord(value)) fail(path, 'expected an object');
    writeMap(w, n, value, shapeOf(shape.value), path);
    return;
  }
  writeValue(w, n, shape, value, path);
}

/** Go sorts map keys as byte strings, which for UTF-8 is not JavaScript's UTF-16 order. */
function byteOrder(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

function writeMap(w: WireWriter, n: number, map: Record<string, unknown>, value: Shape, path: string): void {
  for (const key of Object.keys(map).sort(byteOrder)) {
    const v = map[key];
    w.message(n, (entry) => {
      entry.string(1, key);
      // a null []byte is nil in Go and left out; other null values are zero values
      if (v === null && value.kind === 'bytes') return;
      writeValue(entry, 2, value, v ?? zeroOf(value), `${path}[${key}]`);
    });
  }
}

function writeValue(w: WireWriter, n: number, shape: Shape, v: unknown, path: string): void {
  switch (shape.kind) {
    case 'string':
      if (typeof v !== 'string') fail(path, 'expected a string');
      w.string(n, v);
      return;
    case 'bytes':
      if (typeof v !== 'string') fail(path, 'expected a base64 string');
      w.bytes(n, Buffer.from(v, 'base64'));
      return;
    case 'bool':
      if (typeof v !== 'boolean') fail(path, 'expected a boolean');
      w.tag(n, WireType.Varint);
      w.varint(v ? 1 : 0);
      return;
    case 'int32':
    case 'int64':
      w.tag(n, WireType.Varint);
      w.varint(integer(v, shape.kind === 'int32' ? 32 : 64, path));
      return;
    case 'double':
      if (typeof v !== 'number') fail(path, 'expected a number');
      w.double(n, v);
      return;
    case 'time':
    case 'microTime':
      w.message(n, (m) => writeTimestamp(m, v, path));
      return;
    case 'fieldsV1':
    case 'rawExtension':
      w.message(n, (m) => m.string(1, JSON.stringify(v)));
      return;
    case 'intOrString':
      w.message(n, (m) => writeIntOrString(m, v, path));
      return;
    case 'quantity':
      if (typeof v !== 'string' && typeof v !== 'number') fail(path, 'expected a quantity');
      w.message(n, (m) => m.string(1, String(v)));
      return;
    case 'message':
      w.message(n, (m) => writeMessage(m, v, shape, path));
      return;
    case 'array': {
      // a slice inside a map or another slice is a message {1: repeated items}
      if (!Array.isArray(v)) fail(path, 'expected an array');
      const item = shapeOf(shape.items);
      w.message(n, (m) => v.forEach((x, i) => writeValue(m, 1, item, x ?? zeroOf(item), `${path}[${i}]`)));
      return;
    }
    case 'map':
      if (!isRecord(v)) fail(path, 'expected an object');
      w.message(n, (m) => writeMap(m, 1, v, shapeOf(shape.value), path));
      return;
    case 'unsupported':
      return;
  }
}

function integer(v: unknown, bits: 32 | 64, path: string): bigint {
  if (typeof v !== 'number' || !Number.isInteger(v)) fail(path, 'expected an integer');
  return BigInt.asIntN(bits, BigInt(v));
}

/** Go's zero time marshals to an empty message; others to {1: seconds, 2: nanos}, both always written. */
function writeTimestamp(w: WireWriter, v: unknown, path: string): void {
  if (v === null || v === '') return;
  const t = typeof v === 'string' ? parseTimestamp(v) : undefined;
  if (!t) fail(path, 'expected an RFC 3339 time');
  if (isZeroTimestamp(t)) return;
  w.tag(1, WireType.Varint);
  w.varint(t.seconds);
  w.tag(2, WireType.Varint);
  w.varint(t.nanos);
}

function writeIntOrString(w: WireWriter, v: unknown, path: string): void {
  const isString = typeof v === 'string';
  if (!isString && (typeof v !== 'number' || !Number.isInteger(v))) fail(path, 'expected an int or a string');
  w.tag(1, WireType.Varint);
  w.varint(isString ? 1 : 0);
  w.tag(2, WireType.Varint);
  w.varint(isString ? 0 : BigInt.asIntN(32, BigInt(v as number)));
  w.string(3, isString ? v : '');
}
