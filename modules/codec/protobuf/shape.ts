/**
 * How a schema maps onto the wire. A kind's schema is the only description of its protobuf message: each
 * property carries its field number (`x-pgkube-protobuf`), and shared apimachinery types (`x-pgkube-ref`)
 * that have a wire form of their own (Time, FieldsV1, Quantity, ...) are recognised by name.
 */
import type { Schema } from '../../api/index.js';

const meta = 'io.k8s.apimachinery.pkg.apis.meta.v1';

/**
 * Marks a field whose Go type is a pointer (or otherwise nil-able): kube writes it only when set, and its
 * zero value means something (`automountServiceAccountToken: false`). Fields without it are Go values: kube
 * always writes them and its JSON omits their zero values (unless the parent lists them as required).
 */
export const pointerMarker = 'x-pgkube-pointer';

export type ScalarKind = 'string' | 'bytes' | 'bool' | 'int32' | 'int64' | 'double';

/** Messages with a fixed wire form of their own; their JSON form is a single value. */
export type SpecialKind = 'time' | 'microTime' | 'fieldsV1' | 'rawExtension' | 'intOrString' | 'quantity';

export interface FieldInfo {
  /** JSON property name */
  name: string;
  number: number;
  schema: Schema;
  pointer: boolean;
  /** listed in the parent's `required`: kube's JSON keeps the field even at its zero value */
  required: boolean;
  /**
   * a struct the Go parent embeds inline: its fields are the parent's JSON properties, its wire form a
   * message of its own (always written, a Go value)
   */
  embedded?: MessageShape;
}

export interface MessageShape {
  kind: 'message';
  byNumber: Map<number, FieldInfo>;
  /** fields in field-number order, the order kube writes them in */
  ordered: FieldInfo[];
}

export type Shape =
  | { kind: ScalarKind }
  | { kind: SpecialKind }
  | MessageShape
  /** map<string, V>: repeated entry messages {1: key, 2: value} */
  | { kind: 'map'; value: Schema }
  /** repeated field; as a map value or array item it is wrapped in a message {1: repeated items} */
  | { kind: 'array'; items: Schema }
  /** no wire form we know (free-form JSON without a RawExtension ref); skipped both ways */
  | { kind: 'unsupported' };

const specialRefs: Record<string, SpecialKind> = {
  [`${meta}.Time`]: 'time',
  [`${meta}.MicroTime`]: 'microTime',
  [`${meta}.FieldsV1`]: 'fieldsV1',
  'io.k8s.apimachinery.pkg.runtime.RawExtension': 'rawExtension',
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString': 'intOrString',
  'io.k8s.apimachinery.pkg.api.resource.Quantity': 'quantity',
};

const cache = new WeakMap<Schema, Shape>();

export function isPointer(schema: Schema): boolean {
  return (schema as Record<string, unknown>)[pointerMarker] === true;
}

export function shapeOf(schema: Schema): Shape {
  let shape = cache.get(schema);
  if (!shape) {
    shape = classify(schema);
    cache.set(schema, shape);
  }
  return shape;
}

function classify(schema: Schema): Shape {
  const ref = schema['x-pgkube-ref'];
  if (ref && specialRefs[ref]) return { kind: specialRefs[ref] };
  if (schema['x-kubernetes-int-or-string']) return { kind: 'intOrString' };
  switch (schema.type) {
    case 'string':
      return { kind: schema.format === 'byte' ? 'bytes' : 'string' };
    case 'boolean':
      return { kind: 'bool' };
    case 'integer':
      return { kind: schema.format === 'int32' ? 'int32' : 'int64' };
    case 'number':
      return { kind: 'double' };
    case 'array':
      return schema.items ? { kind: 'array', items: schema.items } : { kind: 'unsupported' };
    case 'object':
    case undefined:
      if (schema.properties) return messageShape(schema);
      if (typeof schema.additionalProperties === 'object')
        return { kind: 'map', value: schema.additionalProperties };
      return { kind: 'unsupported' };
  }
  return { kind: 'unsupported' };
}

function messageShape(schema: Schema): MessageShape {
  const required = new Set(schema.required ?? []);
  const ordered: FieldInfo[] = [];
  const embedded = new Map<number, FieldInfo[]>();
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    const number = prop['x-pgkube-protobuf'];
    if (number === undefined) continue;
    const info = { name, number, schema: prop, pointer: isPointer(prop), required: required.has(name) };
    const at = prop['x-pgkube-protobuf-embedded'];
    if (at === undefined) ordered.push(info);
    else embedded.set(at, [...(embedded.get(at) ?? []), info]);
  }
  for (const [number, fields] of embedded) {
    const shape = orderedShape(fields);
    ordered.push({ name: '', number, schema: {}, pointer: false, required: false, embedded: shape });
  }
  return orderedShape(ordered);
}

function orderedShape(fields: FieldInfo[]): MessageShape {
  fields.sort((a, b) => a.number - b.number);
  return { kind: 'message', byNumber: new Map(fields.map((f) => [f.number, f])), ordered: fields };
}

/** Scalars written as varints, which a repeated field may also send packed. */
export function isVarintKind(kind: Shape['kind']): boolean {
  return kind === 'bool' || kind === 'int32' || kind === 'int64';
}

/** Go's name for a JSON property, as its generated code names fields in errors. */
export function goFieldName(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** The JSON form of a Go value field's zero value (what the wire leaves out and the JSON still shows). */
export function zeroOf(shape: Shape): unknown {
  switch (shape.kind) {
    case 'string':
    case 'bytes':
      return '';
    case 'bool':
      return false;
    case 'int32':
    case 'int64':
    case 'double':
    case 'intOrString':
      return 0;
    case 'quantity':
      return '0';
    case 'message':
      return {};
    case 'array':
      return [];
  }
  return null;
}
