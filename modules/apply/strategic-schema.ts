/**
 * What strategic merge needs to know about a field, read from our Schema instead of Go struct tags:
 * `x-kubernetes-patch-strategy` (comma-separated: merge, replace, retainKeys) and
 * `x-kubernetes-patch-merge-key`. A struct (a schema with `properties`) rejects fields it does not declare,
 * as kube's struct lookup does; map values (`additionalProperties`) carry no markers; a schema that keeps
 * unknown fields, or no schema at all, is untyped: objects merge and lists are replaced.
 */
import type { Schema } from '../api/index.js';
import { errors } from './strategic-errors.js';

export interface SchemaNode {
  schema: Schema | undefined;
  /** the Go struct name kube would print in errors about this node */
  name: string;
}

export interface FieldMeta extends SchemaNode {
  /** the patch strategy other than retainKeys: '', 'merge' or 'replace' */
  strategy: string;
  mergeKey: string;
}

function isStruct(schema: Schema | undefined): schema is Schema {
  return (
    !!schema?.properties &&
    !schema['x-kubernetes-preserve-unknown-fields'] &&
    typeof schema.additionalProperties !== 'object'
  );
}

function nameOf(schema: Schema | undefined, fallback = ''): string {
  const ref = schema?.['x-pgkube-ref'];
  return ref ? ref.slice(ref.lastIndexOf('.') + 1) : fallback;
}

export function rootNode(schema: Schema | undefined, kind: string): SchemaNode {
  return { schema, name: nameOf(schema, kind) };
}

/** kube's extractRetainKeysPatchStrategy: at most one strategy besides retainKeys. */
export function mainStrategy(strategies: string[]): string {
  const others = strategies.filter((s) => s !== 'retainKeys');
  if (strategies.length > 2 || (strategies.length === 2 && others.length === 2)) {
    throw errors.unexpectedStrategy(strategies);
  }
  return others[0] ?? '';
}

const untyped: FieldMeta = { schema: undefined, name: '', strategy: '', mergeKey: '' };

/** The metadata of `key` inside `parent` (kube looks this up only when both sides are maps or lists). */
export function lookupField(parent: SchemaNode, key: string): FieldMeta {
  const schema = parent.schema;
  if (!schema) return untyped;
  const field =
    schema.properties && Object.hasOwn(schema.properties, key) ? schema.properties[key] : undefined;
  if (field) {
    const marker = field['x-kubernetes-patch-strategy'];
    return {
      schema: field,
      name: nameOf(field),
      strategy: mainStrategy(marker ? marker.split(',') : []),
      mergeKey: field['x-kubernetes-patch-merge-key'] ?? '',
    };
  }
  if (typeof schema.additionalProperties === 'object') {
    return { ...untyped, schema: schema.additionalProperties, name: nameOf(schema.additionalProperties) };
  }
  if (isStruct(schema)) throw errors.unknownField(parent.name, key);
  return untyped;
}

/** The schema of a list field's elements. */
export function elementNode(list: FieldMeta): SchemaNode {
  const items = list.schema?.items;
  return { schema: items, name: nameOf(items) };
}

/** How kube names a list's element type in "cannot merge lists without merge key for <kind>". */
export function elementKind(node: SchemaNode): string {
  const s = node.schema;
  if (!s || s['x-kubernetes-preserve-unknown-fields']) return 'interface';
  if (s.properties) return 'struct';
  if (typeof s.additionalProperties === 'object') return 'map';
  return 'interface';
}
