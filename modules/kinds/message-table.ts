/**
 * Builds the schema of a large built-in type (core/v1 Pod) from compact tables: one row per field with its
 * protobuf number, its type and a short description, plus the markers kube's OpenAPI carries. What comes out
 * is the same Schema the hand-written kinds build with `field`/`pointer`/`str`.
 */
import { field, intOrStringSchema, pointer, timeSchema, type Schema } from '../api/index.js';

export type Scalar =
  'string' | 'bytes' | 'bool' | 'int32' | 'int64' | 'double' | 'quantity' | 'intOrString' | 'time';

/** A scalar, a message (a schema marked with its component name), a list of one, or a map of string to one. */
export type FieldType = Scalar | Schema | [Scalar | Schema] | { map: Scalar | Schema | [Scalar] };

export interface FieldOptions {
  /** the Go field is a pointer: only a set value is written, and its zero value counts */
  ptr?: boolean;
  /** x-kubernetes-list-type, or the keys of a `map` list */
  list?: 'atomic' | 'set' | string[];
  /** x-kubernetes-patch-strategy */
  patch?: string;
  /** x-kubernetes-patch-merge-key */
  key?: string;
  mapType?: 'atomic' | 'granular';
  /** the Go struct embeds (inlines) a struct at this protobuf number, and this field belongs to it */
  embed?: number;
  default?: unknown;
}

/** [protobuf number, type, description (messages keep their own: leave it empty), markers] */
export type Row = [number, FieldType, string?, FieldOptions?];

export const quantitySchema: Schema = {
  type: 'string',
  description: 'An amount of a resource: a decimal number with an optional SI or binary suffix (500m, 2Gi).',
  'x-pgkube-ref': 'io.k8s.apimachinery.pkg.api.resource.Quantity',
};

const scalars: Record<Scalar, Schema> = {
  string: { type: 'string' },
  bytes: { type: 'string', format: 'byte' },
  bool: { type: 'boolean' },
  int32: { type: 'integer', format: 'int32' },
  int64: { type: 'integer', format: 'int64' },
  double: { type: 'number', format: 'double' },
  quantity: quantitySchema,
  intOrString: intOrStringSchema,
  time: timeSchema,
};

const schemaOf = (t: Scalar | Schema): Schema => (typeof t === 'string' ? scalars[t] : t);

function typeSchema(t: FieldType): Schema {
  if (Array.isArray(t)) return { type: 'array', items: schemaOf(t[0]) };
  if (typeof t === 'object' && 'map' in t && !('type' in t))
    return { type: 'object', additionalProperties: typeSchema(t.map as FieldType) };
  return schemaOf(t as Scalar | Schema);
}

function fieldSchema([n, type, description, o = {}]: Row): Schema {
  let s = typeSchema(type);
  const shared = s['x-pgkube-ref'] !== undefined;
  // a shared type keeps its own description (the OpenAPI component is taken from any use)
  s = field(n, s, shared ? undefined : description || undefined);
  if (o.list !== undefined) {
    s['x-kubernetes-list-type'] = Array.isArray(o.list) ? 'map' : o.list;
    if (Array.isArray(o.list)) s['x-kubernetes-list-map-keys'] = o.list;
  }
  if (o.patch) s['x-kubernetes-patch-strategy'] = o.patch;
  if (o.key) s['x-kubernetes-patch-merge-key'] = o.key;
  if (o.mapType) s['x-kubernetes-map-type'] = o.mapType;
  if (o.default !== undefined) s.default = o.default;
  if (o.embed !== undefined) s['x-pgkube-protobuf-embedded'] = o.embed;
  return o.ptr ? pointer(s) : s;
}

export interface MessageOptions {
  required?: string[];
  mapType?: 'atomic' | 'granular';
  /** the component's namespace; core/v1 by default */
  package?: string;
}

/** A message type of kube's API: an object schema marked with its OpenAPI component name. */
export function message(
  name: string,
  description: string,
  rows: Record<string, Row>,
  o: MessageOptions = {},
): Schema {
  const properties: Record<string, Schema> = {};
  for (const [prop, row] of Object.entries(rows)) properties[prop] = fieldSchema(row);
  const s: Schema = { type: 'object', description, properties };
  if (o.required?.length) s.required = o.required;
  if (o.mapType) s['x-kubernetes-map-type'] = o.mapType;
  s['x-pgkube-ref'] = `${o.package ?? 'io.k8s.api.core.v1'}.${name}`;
  return s;
}

/** The rows of a struct embedded inline at protobuf number `n` (EphemeralContainer's common fields). */
export function embedded(rows: Record<string, Row>, n: number): Record<string, Row> {
  const out: Record<string, Row> = {};
  for (const [prop, [num, type, description, o]] of Object.entries(rows))
    out[prop] = [num, type, description, { ...o, embed: n }];
  return out;
}
