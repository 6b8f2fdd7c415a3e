/**
 * A CRD schema compiled once for value validation (cached per schema object, like compile.ts does for
 * decoding): the allowed JSON types, the bounds, the compiled pattern and format check, child nodes for
 * properties, map values, items and the combinators, and the x-kubernetes-* markers the walks need. Walking
 * a value then reads plain fields and allocates nothing for values that are valid.
 */
import type { Schema } from '../api/index.js';
import { goRegExp } from './go-regexp.js';
import { formatCheck } from './openapi-formats.js';

export interface ValueNode {
  schema: Schema;
  /** the JSON types allowed, as kube-openapi names them: ['integer', 'string'] for int-or-string */
  types: string[];
  /** types joined by `,` as the type error message prints them */
  typeText: string;
  allowsNumber: boolean;
  allowsInteger: boolean;
  nullable: boolean;
  /** the format as written, when kube checks it (formats kube does not support are dropped) */
  format: string;
  formatCheck: ((s: string) => boolean) | undefined;
  enum: unknown[] | undefined;
  maxLength: number | undefined;
  minLength: number | undefined;
  pattern: string;
  /** undefined when the pattern cannot be translated from Go's syntax: the check is skipped */
  regexp: RegExp | undefined;
  maximum: number | undefined;
  minimum: number | undefined;
  exclusiveMaximum: boolean;
  exclusiveMinimum: boolean;
  multipleOf: number | undefined;
  maxItems: number | undefined;
  minItems: number | undefined;
  uniqueItems: boolean;
  maxProperties: number | undefined;
  minProperties: number | undefined;
  required: string[] | undefined;
  props: Map<string, ValueNode> | undefined;
  /** property names in schema order (kube's order is Go's random map order; ours is stable) */
  propNames: string[];
  /** the nodes of propNames, at the same indexes */
  propNodes: ValueNode[];
  /** whether a property name is also one of Object.prototype's (`constructor`, `toString`) */
  propInherited: boolean[];
  /** additionalProperties: a schema, or false (no other keys), or undefined (any key, not validated) */
  additional: ValueNode | undefined;
  noAdditional: boolean;
  items: ValueNode | undefined;
  allOf: ValueNode[] | undefined;
  anyOf: ValueNode[] | undefined;
  oneOf: ValueNode[] | undefined;
  not: ValueNode | undefined;
  /** kube-openapi checks the type when the schema names a type or a (supported) format */
  hasTypeCheck: boolean;
  embedded: boolean;
  preserveUnknown: boolean;
  listType: string | undefined;
  listMapKeys: string[] | undefined;
  /** the default value, undefined when none */
  default: unknown;
}

const cache = new WeakMap<Schema, ValueNode>();

function list(schemas: Schema[] | undefined): ValueNode[] | undefined {
  return schemas && schemas.length > 0 ? schemas.map(compileValueNode) : undefined;
}

export function compileValueNode(schema: Schema): ValueNode {
  const cached = cache.get(schema);
  if (cached) return cached;
  const types: string[] = schema['x-kubernetes-int-or-string']
    ? ['integer', 'string']
    : schema.type
      ? [schema.type]
      : [];
  const check = formatCheck(schema.format);
  const node: ValueNode = {
    schema,
    types,
    typeText: types.join(','),
    allowsNumber: types.includes('number'),
    allowsInteger: types.includes('integer'),
    nullable: schema.nullable === true,
    format: check ? (schema.format ?? '') : '',
    formatCheck: check,
    enum: schema.enum && schema.enum.length > 0 ? schema.enum : undefined,
    maxLength: schema.maxLength,
    minLength: schema.minLength,
    pattern: schema.pattern ?? '',
    regexp: schema.pattern ? goRegExp(schema.pattern) : undefined,
    maximum: schema.maximum,
    minimum: schema.minimum,
    exclusiveMaximum: schema.exclusiveMaximum === true,
    exclusiveMinimum: schema.exclusiveMinimum === true,
    multipleOf: schema.multipleOf,
    maxItems: schema.maxItems,
    minItems: schema.minItems,
    uniqueItems: schema.uniqueItems === true,
    maxProperties: schema.maxProperties,
    minProperties: schema.minProperties,
    required: schema.required && schema.required.length > 0 ? schema.required : undefined,
    props: undefined,
    propNames: [],
    propNodes: [],
    propInherited: [],
    additional: undefined,
    noAdditional: schema.additionalProperties === false,
    items: undefined,
    allOf: undefined,
    anyOf: undefined,
    oneOf: undefined,
    not: undefined,
    hasTypeCheck: false,
    embedded: schema['x-kubernetes-embedded-resource'] === true,
    preserveUnknown: schema['x-kubernetes-preserve-unknown-fields'] === true,
    listType: schema['x-kubernetes-list-type'],
    listMapKeys: schema['x-kubernetes-list-map-keys'],
    default: schema.default,
  };
  node.hasTypeCheck = node.types.length > 0 || node.format !== '';
  // cache before the children: schemas may share or nest nodes
  cache.set(schema, node);
  if (schema.properties) {
    node.props = new Map();
    node.propNames = Object.keys(schema.properties);
    for (const key of node.propNames) {
      const child = compileValueNode(schema.properties[key]);
      node.props.set(key, child);
      node.propNodes.push(child);
      node.propInherited.push(key in Object.prototype);
    }
  }
  if (typeof schema.additionalProperties === 'object' && schema.additionalProperties !== null)
    node.additional = compileValueNode(schema.additionalProperties);
  if (schema.items) node.items = compileValueNode(schema.items);
  node.allOf = list(schema.allOf);
  node.anyOf = list(schema.anyOf);
  node.oneOf = list(schema.oneOf);
  if (schema.not) node.not = compileValueNode(schema.not);
  return node;
}

const below = new Map<string, WeakMap<ValueNode, boolean>>();

/**
 * Whether `node` or any node a value under it can reach (properties, map values, items) passes `test`:
 * walks that only look for list types or embedded resources skip the subtrees that have none. Remembered
 * per node and `key`; self-referencing schemas are fine.
 */
export function anyBelow(node: ValueNode, key: string, test: (n: ValueNode) => boolean): boolean {
  let memo = below.get(key);
  if (!memo) below.set(key, (memo = new WeakMap()));
  const known = memo.get(node);
  if (known !== undefined) return known;
  const seen = new Set<ValueNode>();
  const visit = (n: ValueNode | undefined): boolean => {
    if (!n || seen.has(n)) return false;
    seen.add(n);
    if (test(n)) return true;
    if (n.props) for (const p of n.props.values()) if (visit(p)) return true;
    return visit(n.additional) || visit(n.items);
  };
  const found = visit(node);
  memo.set(node, found);
  return found;
}
