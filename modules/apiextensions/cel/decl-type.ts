// A schema node as CEL sees it (kube's DeclType): which CEL type `self` has there, which fields it exposes (by
// their escaped names), and the size bounds kube's cost estimate assumes: maxLength, maxItems and maxProperties
// where the schema sets them, else as many as the largest request (3 MiB) can hold.
import type { Schema } from '../../api/index.js';
import { maxRequestSizeBytes, type ObjectTypeDeclaration, type SizeSchema } from '../../cel/index.js';
import { escapeName } from './escape.js';

export type DeclKind =
  | 'object'
  | 'map'
  | 'list'
  | 'string'
  | 'bytes'
  | 'duration'
  | 'timestamp'
  | 'int'
  | 'double'
  | 'bool'
  | 'dyn';

export interface DeclField {
  /** the property's name in the object (the field's CEL name is its escaped form) */
  name: string;
  type: DeclType;
}

export interface DeclType {
  kind: DeclKind;
  /** the node's schema; at a resource root with apiVersion, kind and metadata.name/generateName added */
  schema: Schema;
  /** how many elements (lists, maps), bytes (strings) a value may have, as kube estimates it */
  maxElements: number;
  /** the smallest JSON a value takes, which bounds how many fit in a request */
  minSize: number;
  /** object fields by CEL name */
  fields?: Map<string, DeclField>;
  /** list items, map values */
  elem?: DeclType;
}

// the JSON sizes kube assumes for formatted strings: "0", "2006-01-02", RFC 3339 timestamps
const maxDurationSize = 32;
const maxDateTimeSize = 32;
const minDurationSize = 3;
const dateSize = 12;
const minDateTimeSize = 21;

const bytes = (s: string) => Buffer.byteLength(s);
const zeroIfNegative = (n: number) => Math.max(0, n);
const simple = (kind: DeclKind, schema: Schema, minSize: number, maxElements = 0): DeclType => ({
  kind,
  schema,
  minSize,
  maxElements,
});

const stringSchema: Schema = { type: 'string' };

/**
 * The schema of a resource root (a custom resource, an embedded resource) as its rules see it: `apiVersion`,
 * `kind`, `metadata.name` and `metadata.generateName` are always there, and nothing else of metadata.
 */
export function withTypeAndObjectMeta(s: Schema): Schema {
  const p = s.properties;
  const meta = p?.metadata;
  if (
    p?.kind?.type === 'string' &&
    p.apiVersion?.type === 'string' &&
    meta?.type === 'object' &&
    meta.properties?.name?.type === 'string' &&
    meta.properties.generateName?.type === 'string'
  ) {
    return s;
  }
  return {
    ...s,
    properties: {
      ...p,
      kind: stringSchema,
      apiVersion: stringSchema,
      metadata: { type: 'object', properties: { name: stringSchema, generateName: stringSchema } },
    },
  };
}

function stringType(s: Schema): DeclType {
  const perRequest = maxRequestSizeBytes - 2;
  switch (s.format) {
    case 'byte':
      return simple('bytes', s, 2, s.maxLength !== undefined ? zeroIfNegative(s.maxLength) : perRequest);
    case 'duration':
      return simple('duration', s, minDurationSize, maxDurationSize);
    case 'date':
      return simple('timestamp', s, dateSize, dateSize);
    case 'date-time':
      return simple('timestamp', s, minDateTimeSize, maxDateTimeSize);
  }
  // maxLength counts code points, the estimate bytes: up to 4 a code point
  if (s.maxLength !== undefined) return simple('string', s, 2, zeroIfNegative(s.maxLength) * 4);
  if (s.enum?.length) {
    const longest = Math.max(0, ...s.enum.map((e) => (typeof e === 'string' ? bytes(e) : 0)));
    return simple('string', s, 2, longest);
  }
  return simple('string', s, 2, perRequest);
}

function objectType(s: Schema): DeclType {
  const fields = new Map<string, DeclField>();
  const required = new Set(s.required ?? []);
  // `{}`, plus each required property without a default (defaults are filled in before validation)
  let minSize = 2;
  for (const [name, prop] of Object.entries(s.properties ?? {})) {
    const type = declType(prop, prop['x-kubernetes-embedded-resource'] === true);
    if (!type) continue;
    const escaped = escapeName(name);
    if (escaped !== undefined) fields.set(escaped, { name, type });
    if (required.has(name) && prop.default === undefined) minSize += bytes(name) + type.minSize + 4;
  }
  return { kind: 'object', schema: s, fields, minSize, maxElements: 0 };
}

/**
 * The CEL type of a schema node, or undefined where kube exposes nothing to rules: schemas without a type
 * (only x-kubernetes-preserve-unknown-fields), lists and maps of such.
 */
export function declType(schema: Schema | undefined, isResourceRoot: boolean): DeclType | undefined {
  if (!schema) return undefined;
  // int-or-string is dyn: the rule checks which it got (`type(self) == string`)
  if (schema['x-kubernetes-int-or-string']) return simple('dyn', schema, 1, maxRequestSizeBytes - 2);
  const s = isResourceRoot ? withTypeAndObjectMeta(schema) : schema;
  switch (s.type) {
    case 'array': {
      const items = declType(s.items, s.items?.['x-kubernetes-embedded-resource'] === true);
      if (!items) return undefined;
      const max =
        s.maxItems !== undefined
          ? zeroIfNegative(s.maxItems)
          : Math.floor((maxRequestSizeBytes - 2) / (items.minSize + 1));
      return { kind: 'list', schema: s, elem: items, maxElements: max, minSize: 2 };
    }
    case 'object': {
      const ap = s.additionalProperties;
      if (ap !== undefined && typeof ap === 'object') {
        const values = declType(ap, ap['x-kubernetes-embedded-resource'] === true);
        if (!values) return undefined;
        const max =
          s.maxProperties !== undefined
            ? zeroIfNegative(s.maxProperties)
            : Math.floor((maxRequestSizeBytes - 2) / (values.minSize + 6));
        return { kind: 'map', schema: s, elem: values, maxElements: max, minSize: 2 };
      }
      return objectType(s);
    }
    case 'string':
      return stringType(s);
    case 'boolean':
      return simple('bool', s, 4);
    case 'number':
      return simple('double', s, 1);
    case 'integer':
      return simple('int', s, 1);
  }
  return undefined;
}

const scalarNames: Partial<Record<DeclKind, string>> = {
  string: 'string',
  bytes: 'bytes',
  duration: 'google.protobuf.Duration',
  timestamp: 'google.protobuf.Timestamp',
  int: 'int',
  double: 'double',
  bool: 'bool',
  dyn: 'dyn',
};

/**
 * The CEL type name of `t`, registering its object types (named after their path from `name`, as kube names
 * them from a per-compilation `selfType<N>`) into `types`.
 */
export function celTypeName(t: DeclType, name: string, types: ObjectTypeDeclaration[]): string {
  switch (t.kind) {
    case 'object': {
      const fields: Record<string, string> = {};
      for (const [escaped, f] of t.fields!)
        fields[escaped] = celTypeName(f.type, `${name}.${escaped}`, types);
      types.push({ name, fields });
      return name;
    }
    case 'list':
      return `list<${celTypeName(t.elem!, `${name}.items`, types)}>`;
    case 'map':
      return `map<string, ${celTypeName(t.elem!, `${name}.additionalProperties`, types)}>`;
    default:
      return scalarNames[t.kind]!;
  }
}

/** The sizes kube's estimate takes from a node (its maxElements), in the form modules/cel's estimate reads. */
export function sizeSchema(t: DeclType): SizeSchema {
  const maxElements = t.maxElements;
  switch (t.kind) {
    case 'object': {
      const properties: Record<string, SizeSchema> = {};
      for (const [escaped, f] of t.fields!) properties[escaped] = sizeSchema(f.type);
      return { type: 'object', properties, maxElements };
    }
    case 'list':
      return { type: 'array', maxItems: maxElements, items: sizeSchema(t.elem!), maxElements };
    case 'map':
      return {
        type: 'object',
        maxProperties: maxElements,
        additionalProperties: sizeSchema(t.elem!),
        maxElements,
      };
    case 'int':
      return { type: 'integer', maxElements };
    case 'double':
      return { type: 'number', maxElements };
    case 'bool':
      return { type: 'boolean', maxElements };
    default:
      return { type: 'string', maxLength: maxElements, maxElements };
  }
}
