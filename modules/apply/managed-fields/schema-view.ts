/**
 * How server-side apply reads a `Schema`: every node is a scalar, a list (atomic, a set of scalars, or a map
 * keyed by some of its items' fields), a map (a struct with named fields and/or arbitrary keys; atomic or
 * granular), or "deduced" (no schema: the value's own shape decides, maps granular and lists atomic).
 *
 * Markers follow kube's OpenAPI conversion: `x-kubernetes-list-type` wins; without it a
 * `x-kubernetes-patch-strategy: merge` list is keyed by `x-kubernetes-patch-merge-key` (a set when there is
 * none); every other list is atomic. Maps and structs are granular unless `x-kubernetes-map-type: atomic`.
 */
import type { Schema } from '../../api/index.js';
import { isObject, own } from './json-value.js';
import {
  index,
  key,
  pathText,
  serializeElement,
  value,
  type KeyField,
  type Path,
  type PathElement,
} from './path-element.js';

/** undefined: no schema, the value decides */
export type SchemaRef = Schema | undefined;

export interface ScalarView {
  readonly kind: 'scalar';
  readonly scalar: 'string' | 'numeric' | 'boolean' | 'untyped';
}

export interface ListView {
  readonly kind: 'list';
  readonly atomic: boolean;
  /** key fields of a keyed list; empty for a set (when not atomic) */
  readonly keys: readonly string[];
  readonly items: SchemaRef;
}

export interface MapView {
  readonly kind: 'map';
  readonly atomic: boolean;
  readonly fields: Readonly<Record<string, Schema>> | undefined;
  /** what keys that are not named fields hold: a schema, anything (deduced), or nothing allowed */
  readonly elements: { readonly schema: SchemaRef } | 'none';
}

export type TypeView = ScalarView | ListView | MapView;

const views = new WeakMap<Schema, TypeView | 'deduced'>();

const deducedMap: MapView = {
  kind: 'map',
  atomic: false,
  fields: undefined,
  elements: { schema: undefined },
};
const deducedList: ListView = { kind: 'list', atomic: true, keys: [], items: undefined };
const untyped: ScalarView = { kind: 'scalar', scalar: 'untyped' };

function listView(s: Schema): ListView {
  const listType = s['x-kubernetes-list-type'];
  let atomic = true;
  let keys: string[] = [];
  if (listType === 'set') {
    atomic = false;
  } else if (listType === 'map') {
    keys = [...(s['x-kubernetes-list-map-keys'] ?? [])];
    // kube cannot build a keyed list without keys; such a list is replaced whole
    atomic = keys.length === 0;
  } else if (listType === undefined) {
    const strategy = s['x-kubernetes-patch-strategy'];
    if (strategy === 'merge' || strategy === 'merge,retainKeys') {
      atomic = false;
      const mergeKey = s['x-kubernetes-patch-merge-key'];
      if (mergeKey) keys = [mergeKey];
    }
  }
  return { kind: 'list', atomic, keys, items: s.items };
}

function mapView(s: Schema): MapView | 'deduced' {
  const ap = s.additionalProperties;
  const preserve = s['x-kubernetes-preserve-unknown-fields'] === true;
  if (!s.properties && ap === undefined && (preserve || s.type === undefined)) return 'deduced';
  let elements: MapView['elements'] = 'none';
  if (isObject(ap)) elements = { schema: ap as Schema };
  else if (ap === true || preserve || (!s.properties && ap === undefined)) elements = { schema: undefined };
  return {
    kind: 'map',
    atomic: s['x-kubernetes-map-type'] === 'atomic',
    fields: s.properties,
    elements,
  };
}

function computeView(s: Schema): TypeView | 'deduced' {
  if (s['x-kubernetes-int-or-string']) return untyped;
  const type =
    s.type ??
    (s.properties || s.additionalProperties !== undefined ? 'object' : s.items ? 'array' : undefined);
  switch (type) {
    case 'array':
      return listView(s);
    case 'object':
      return mapView(s);
    case 'string':
      return { kind: 'scalar', scalar: 'string' };
    case 'integer':
    case 'number':
      return { kind: 'scalar', scalar: 'numeric' };
    case 'boolean':
      return { kind: 'scalar', scalar: 'boolean' };
    default:
      return 'deduced';
  }
}

/** The view of a schema node, or 'deduced' when the value must decide. */
export function schemaView(schema: SchemaRef): TypeView | 'deduced' {
  if (!schema) return 'deduced';
  let v = views.get(schema);
  if (!v) {
    v = computeView(schema);
    views.set(schema, v);
  }
  return v;
}

/** The view to walk `value` with: the schema's, or one deduced from the value's shape. */
export function viewFor(schema: SchemaRef, value: unknown): TypeView {
  const v = schemaView(schema);
  if (v !== 'deduced') return v;
  if (isObject(value) || value === null || value === undefined) return deducedMap;
  return Array.isArray(value) ? deducedList : untyped;
}

export interface MapChild {
  readonly schema: SchemaRef;
  /** a named struct field (owned only through what is below it) rather than a map key */
  readonly declared: boolean;
}

/** The schema of `key` in a map, or undefined when the key is not allowed there. */
export function mapChild(view: MapView, k: string): MapChild | undefined {
  if (view.fields && Object.hasOwn(view.fields, k)) return { schema: view.fields[k], declared: true };
  if (view.elements === 'none') return undefined;
  return { schema: view.elements.schema, declared: false };
}

/** A problem kube's typed conversion reports, at a path. */
export interface TypedError {
  readonly path: Path;
  readonly message: string;
}

export function typedErrorText(errors: readonly TypedError[]): string {
  const one = (e: TypedError): string => (e.path.length ? `${pathText(e.path)}: ${e.message}` : e.message);
  if (errors.length === 1) return one(errors[0]);
  return ['errors:', ...errors.map((e) => `  ${one(e)}`)].join('\n');
}

/** A value kube's typed conversion would reject; the message lists every problem as kube prints them. */
export class TypedValueError extends Error {
  constructor(readonly errors: readonly TypedError[]) {
    super(typedErrorText(errors));
  }
}

export class ListItemError extends Error {}

function keyDefault(view: ListView, name: string): unknown {
  const props = view.items?.properties;
  return props && Object.hasOwn(props, name) ? props[name].default : undefined;
}

/** The element that names item `i` of a list (throws ListItemError with kube's message when it cannot). */
export function listItemElement(view: ListView, item: unknown, i: number): PathElement {
  if (view.atomic) return index(i);
  if (view.keys.length === 0) {
    if (isObject(item))
      throw new ListItemError("associative list without keys has an element that's a map type");
    if (Array.isArray(item)) {
      throw new ListItemError("associative list without keys has an element that's a list type");
    }
    return value(item);
  }
  if (item === null) throw new ListItemError('associative list with keys may not have a null element');
  if (!isObject(item)) throw new ListItemError('associative list with keys may not have non-map elements');
  const fields: KeyField[] = [];
  for (const name of view.keys) {
    if (Object.hasOwn(item, name)) {
      fields.push([name, own(item, name)]);
      continue;
    }
    const def = keyDefault(view, name);
    if (def === undefined) {
      throw new ListItemError(
        `associative list with keys has an element that omits key field ${JSON.stringify(name)} (and doesn't have default value)`,
      );
    }
    fields.push([name, def]);
  }
  return key(fields);
}

export interface ListItem {
  readonly pe: PathElement;
  /** serialized element, the item's identity */
  readonly id: string;
  readonly value: unknown;
}

/** The items of a list with their elements, in order (duplicates kept); unusable items go to `onError`. */
export function listItems(
  view: ListView,
  items: readonly unknown[],
  onError: (i: number, message: string) => void,
): ListItem[] {
  const out: ListItem[] = [];
  items.forEach((item, i) => {
    try {
      const pe = listItemElement(view, item, i);
      out.push({ pe, id: serializeElement(pe), value: item });
    } catch (err) {
      if (!(err instanceof ListItemError)) throw err;
      onError(i, err.message);
    }
  });
  return out;
}
