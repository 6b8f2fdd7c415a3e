/**
 * Protobuf → the JSON form kube's own JSON would give for the same object, driven by the kind's schema.
 * Go value fields arrive even when zero; like kube's JSON (omitempty) their zero values are left out, except
 * for fields the parent requires. Pointer fields (see `pointerMarker`) keep whatever was sent.
 */
import { ApiError } from '../../api/index.js';
import type { Schema } from '../../api/index.js';
import {
  goFieldName,
  isVarintKind,
  shapeOf,
  zeroOf,
  type FieldInfo,
  type MessageShape,
  type Shape,
} from './shape.js';
import { formatMicroTime, formatTime, type Timestamp } from './time.js';
import { malformed, WireReader, WireType } from './wire.js';

export interface TypeMeta {
  apiVersion: string;
  kind: string;
}

/**
 * Decodes one object's message (the `raw` of its envelope). `typeMeta`, when given, supplies kind and
 * apiVersion, which the message itself does not carry.
 */
export function decodeProtobufObject(
  raw: Uint8Array,
  schema: Schema,
  typeMeta?: TypeMeta,
): Record<string, unknown> {
  const shape = shapeOf(schema);
  if (shape.kind !== 'message')
    throw new Error('decodeProtobufObject needs an object schema with properties');
  const out: Record<string, unknown> = {};
  if (typeMeta?.kind) out.kind = typeMeta.kind;
  if (typeMeta?.apiVersion) out.apiVersion = typeMeta.apiVersion;
  return decodeMessage(new WireReader(raw), shape, out);
}

function decodeMessage(r: WireReader, shape: MessageShape, into: Record<string, unknown> = {}) {
  while (!r.done()) {
    const { field, wireType } = r.tag();
    const info = shape.byNumber.get(field);
    // an inline-embedded struct's fields land in the parent's own object
    if (info?.embedded) decodeMessage(sub(r, wireType, String(info.number)), info.embedded, into);
    else if (info) decodeField(r, wireType, info, into);
    else r.skip(wireType);
  }
  return into;
}

function expect(wireType: number, want: number, name: string): void {
  if (wireType !== want)
    throw malformed(`proto: wrong wireType = ${wireType} for field ${goFieldName(name)}`);
}

/** A length-delimited value's own reader. */
function sub(r: WireReader, wireType: number, name: string): WireReader {
  expect(wireType, WireType.Bytes, name);
  const { start, end } = r.span();
  return new WireReader(r.buf, start, end);
}

function isZeroScalar(value: unknown): boolean {
  return value === '' || value === 0 || value === false;
}

function decodeField(r: WireReader, wireType: number, info: FieldInfo, into: Record<string, unknown>): void {
  const shape = shapeOf(info.schema);
  const { name } = info;
  switch (shape.kind) {
    case 'array': {
      const list = Array.isArray(into[name]) ? (into[name] as unknown[]) : (into[name] = []);
      readRepeated(r, wireType, shapeOf(shape.items), name, list);
      return;
    }
    case 'map': {
      const map = isRecord(into[name]) ? into[name] : (into[name] = {});
      const [key, value] = readMapEntry(sub(r, wireType, name), shape.value, name);
      setKey(map, key, value);
      return;
    }
    case 'message': {
      // a message sent twice merges, as Go's unmarshaling into the same struct does
      const target = isRecord(into[name]) ? into[name] : {};
      into[name] = decodeMessage(sub(r, wireType, name), shape, target);
      return;
    }
    case 'unsupported':
      r.skip(wireType);
      return;
  }
  const value = readValue(r, wireType, shape, name);
  if (isScalar(shape) && isZeroScalar(value) && !info.pointer && !info.required) delete into[name];
  else into[name] = value;
}

function isScalar(shape: Shape): boolean {
  return (
    isVarintKind(shape.kind) || shape.kind === 'string' || shape.kind === 'bytes' || shape.kind === 'double'
  );
}

/** Map keys come from the wire: `__proto__` must stay an ordinary key. */
function setKey(map: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(map, key, { value, enumerable: true, writable: true, configurable: true });
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** One occurrence of a repeated field: one element, or several packed into one length-delimited run. */
function readRepeated(r: WireReader, wireType: number, item: Shape, name: string, list: unknown[]): void {
  const packable = isVarintKind(item.kind) || item.kind === 'double';
  if (packable && wireType === WireType.Bytes) {
    const run = sub(r, wireType, name);
    const inner = item.kind === 'double' ? WireType.Fixed64 : WireType.Varint;
    while (!run.done()) list.push(readValue(run, inner, item, name));
    return;
  }
  list.push(readValue(r, wireType, item, name));
}

function readMapEntry(entry: WireReader, valueSchema: Schema, name: string): [string, unknown] {
  const valueShape = shapeOf(valueSchema);
  let key = '';
  let value: unknown = undefined;
  while (!entry.done()) {
    const { field, wireType } = entry.tag();
    if (field === 1) {
      expect(wireType, WireType.Bytes, name);
      key = entry.string();
    } else if (field === 2) value = readValue(entry, wireType, valueShape, name);
    else entry.skip(wireType);
  }
  return [key, value === undefined ? (valueShape.kind === 'array' ? null : zeroOf(valueShape)) : value];
}

/** A single value of any shape (array and map shapes here are values inside a map or another array). */
function readValue(r: WireReader, wireType: number, shape: Shape, name: string): unknown {
  switch (shape.kind) {
    case 'string':
      expect(wireType, WireType.Bytes, name);
      return r.string();
    case 'bytes':
      expect(wireType, WireType.Bytes, name);
      return Buffer.from(r.bytes()).toString('base64');
    case 'bool':
      expect(wireType, WireType.Varint, name);
      return r.varint() !== 0n;
    case 'int32':
      expect(wireType, WireType.Varint, name);
      return Number(BigInt.asIntN(32, r.varint()));
    case 'int64':
      expect(wireType, WireType.Varint, name);
      return Number(BigInt.asIntN(64, r.varint()));
    case 'double':
      expect(wireType, WireType.Fixed64, name);
      return r.fixed64().getFloat64(0, true);
    case 'time':
      return formatTime(readTimestamp(sub(r, wireType, name)));
    case 'microTime':
      return formatMicroTime(readTimestamp(sub(r, wireType, name)));
    case 'fieldsV1':
    case 'rawExtension':
      return readEmbeddedJson(sub(r, wireType, name), name);
    case 'intOrString':
      return readIntOrString(sub(r, wireType, name));
    case 'quantity':
      return readQuantity(sub(r, wireType, name));
    case 'message':
      return decodeMessage(sub(r, wireType, name), shape);
    case 'array': {
      const list: unknown[] = [];
      const wrapper = sub(r, wireType, name);
      const item = shapeOf(shape.items);
      while (!wrapper.done()) {
        const t = wrapper.tag();
        if (t.field === 1) readRepeated(wrapper, t.wireType, item, name, list);
        else wrapper.skip(t.wireType);
      }
      return list;
    }
    case 'map':
    case 'unsupported':
      r.skip(wireType);
      return null;
  }
}

function readTimestamp(r: WireReader): Timestamp {
  let seconds = 0n;
  let nanos = 0;
  if (r.done()) return { seconds: -62135596800n, nanos: 0 };
  while (!r.done()) {
    const { field, wireType } = r.tag();
    if (field === 1) {
      expect(wireType, WireType.Varint, 'Seconds');
      seconds = BigInt.asIntN(64, r.varint());
    } else if (field === 2) {
      expect(wireType, WireType.Varint, 'Nanos');
      nanos = Number(BigInt.asIntN(32, r.varint()));
    } else r.skip(wireType);
  }
  return { seconds, nanos };
}

/** FieldsV1 and RawExtension: {1: raw bytes}, which hold JSON in the objects kube clients send. */
function readEmbeddedJson(r: WireReader, name: string): unknown {
  let raw: Uint8Array | undefined;
  while (!r.done()) {
    const { field, wireType } = r.tag();
    if (field === 1) {
      expect(wireType, WireType.Bytes, 'Raw');
      raw = r.bytes();
    } else r.skip(wireType);
  }
  if (raw === undefined || raw.length === 0) return null;
  if (raw[0] === 0x6b && raw[1] === 0x38 && raw[2] === 0x73 && raw[3] === 0) {
    throw ApiError.badRequest(`${name}: embedded protobuf objects are not supported, send JSON`);
  }
  try {
    return JSON.parse(Buffer.from(raw).toString('utf8'));
  } catch (e) {
    throw ApiError.badRequest(`${name}: invalid JSON: ${(e as Error).message}`);
  }
}

/** IntOrString {1: type (0 int, 1 string), 2: intVal, 3: strVal} */
function readIntOrString(r: WireReader): number | string {
  let type = 0n;
  let intVal = 0;
  let strVal = '';
  while (!r.done()) {
    const { field, wireType } = r.tag();
    if (field === 1) {
      expect(wireType, WireType.Varint, 'Type');
      type = BigInt.asIntN(64, r.varint());
    } else if (field === 2) {
      expect(wireType, WireType.Varint, 'IntVal');
      intVal = Number(BigInt.asIntN(32, r.varint()));
    } else if (field === 3) {
      expect(wireType, WireType.Bytes, 'StrVal');
      strVal = r.string();
    } else r.skip(wireType);
  }
  return type === 1n ? strVal : intVal;
}

/** Quantity {1: string}; kube re-parses it, so an absent string is the zero quantity. */
function readQuantity(r: WireReader): string {
  let text = '0';
  while (!r.done()) {
    const { field, wireType } = r.tag();
    if (field === 1) {
      expect(wireType, WireType.Bytes, 'String_');
      text = r.string();
    } else r.skip(wireType);
  }
  return text;
}
