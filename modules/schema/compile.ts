/**
 * A Schema compiled once (cached per schema object) into what decoding needs on every write: a node kind,
 * property maps, and the Go names kube's JSON errors mention. Shared and self-referencing schemas compile
 * to shared nodes, so cycles (e.g. JSONSchemaProps) are fine.
 */
import type { Schema } from '../api/index.js';

export enum NodeKind {
  /** anything goes: no type, or unknown fields preserved without properties */
  Any,
  Object,
  Array,
  String,
  Bytes,
  Time,
  MicroTime,
  Integer,
  Number,
  Boolean,
  IntOrString,
  Quantity,
}

export interface Node {
  kind: NodeKind;
  /** declared properties of an object (struct fields) */
  props: Map<string, Node> | undefined;
  /** schema of map values (additionalProperties: {...}) */
  additional: Node | undefined;
  /** keep keys that are neither properties nor map entries */
  keepUnknown: boolean;
  /** apiVersion / kind / metadata are implicitly known (x-kubernetes-embedded-resource) */
  embedded: boolean;
  items: Node | undefined;
  nullable: boolean;
  /** integer bounds from format int32 / int64: min inclusive, limit exclusive */
  min: number;
  limit: number;
  /** Go struct name used in "Go struct field <Struct>.<path>" (last segment of x-pgkube-ref) */
  structName: string | undefined;
  /** the source schema, for lazily derived details */
  schema: Schema;
  /** memo of goType() */
  goType: string;
}

const cache = new WeakMap<Schema, Node>();

const refPrefixes: Record<string, string> = {
  'io.k8s.apimachinery.pkg.api.resource.Quantity': 'resource.Quantity',
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString': 'intstr.IntOrString',
};

/** `io.k8s.api.core.v1.Container` → `v1.Container`, as Go prints a named type. */
function goNamedType(ref: string): string {
  const known = refPrefixes[ref];
  if (known) return known;
  const parts = ref.split('.');
  return parts.length >= 2 ? `${parts[parts.length - 2]}.${parts[parts.length - 1]}` : ref;
}

function baseKind(schema: Schema): NodeKind {
  const ref = schema['x-pgkube-ref'];
  if (ref === 'io.k8s.apimachinery.pkg.api.resource.Quantity') return NodeKind.Quantity;
  if (schema['x-kubernetes-int-or-string']) return NodeKind.IntOrString;
  switch (schema.type) {
    case 'object':
      return NodeKind.Object;
    case 'array':
      return NodeKind.Array;
    case 'string':
      if (schema.format === 'byte') return NodeKind.Bytes;
      if (schema.format === 'date-time')
        return ref === 'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime' ? NodeKind.MicroTime : NodeKind.Time;
      return NodeKind.String;
    case 'integer':
      return NodeKind.Integer;
    case 'number':
      return NodeKind.Number;
    case 'boolean':
      return NodeKind.Boolean;
  }
  return schema.properties ? NodeKind.Object : NodeKind.Any;
}

/** The Go type as reflect prints it in "of type <T>" (computed on first use: schemas may be cyclic). */
export function goType(node: Node): string {
  if (node.goType === '') node.goType = goTypeOf(node);
  return node.goType;
}

function goTypeOf(node: Node): string {
  const schema = node.schema;
  const ref = schema['x-pgkube-ref'];
  switch (node.kind) {
    case NodeKind.Quantity:
      return 'resource.Quantity';
    case NodeKind.IntOrString:
      return 'intstr.IntOrString';
    case NodeKind.Bytes:
      return '[]uint8';
    case NodeKind.Integer:
      return node.limit === int32Limit ? 'int32' : 'int64';
    case NodeKind.Number:
      return schema.format === 'float' ? 'float32' : 'float64';
    case NodeKind.Boolean:
      return 'bool';
    case NodeKind.Array:
      return `[]${node.items ? goType(node.items) : 'interface {}'}`;
    case NodeKind.Any:
      return ref ? goNamedType(ref) : 'interface {}';
  }
  if (ref) return goNamedType(ref);
  if (node.kind === NodeKind.Object) {
    if (node.additional && !node.props?.size) return `map[string]${goType(node.additional)}`;
    if (!node.props) return 'map[string]interface {}';
    return 'struct';
  }
  return 'string';
}

const int32Min = -2147483648;
const int32Limit = 2147483648;
const int64Limit = 2 ** 63;

export function compileSchema(schema: Schema): Node {
  const cached = cache.get(schema);
  if (cached) return cached;
  const kind = baseKind(schema);
  const ref = schema['x-pgkube-ref'];
  const node: Node = {
    kind,
    props: undefined,
    additional: undefined,
    keepUnknown:
      schema['x-kubernetes-preserve-unknown-fields'] === true || schema.additionalProperties === true,
    embedded: schema['x-kubernetes-embedded-resource'] === true,
    items: undefined,
    nullable: schema.nullable === true,
    min: schema.format === 'int32' ? int32Min : -int64Limit,
    limit: schema.format === 'int32' ? int32Limit : int64Limit,
    structName: ref ? ref.slice(ref.lastIndexOf('.') + 1) : undefined,
    schema,
    goType: '',
  };
  cache.set(schema, node);
  if (schema.properties) {
    node.props = new Map();
    for (const key of Object.keys(schema.properties))
      node.props.set(key, compileSchema(schema.properties[key]));
  }
  if (typeof schema.additionalProperties === 'object' && schema.additionalProperties !== null) {
    node.additional = compileSchema(schema.additionalProperties);
  }
  if (schema.items) node.items = compileSchema(schema.items);
  // unknown fields kept and nothing declared: the value is opaque
  if (kind === NodeKind.Object && node.keepUnknown && !node.props && !node.additional)
    node.kind = NodeKind.Any;
  return node;
}
