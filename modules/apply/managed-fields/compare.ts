/**
 * What changed between two versions of an object, as field sets (kube's typed Compare). A leaf (scalar,
 * atomic list or map, or an empty container on both sides) is added, removed or modified; a container that
 * appears or disappears is itself added or removed besides everything below it. That is why a writer that
 * creates `metadata.labels` owns `f:labels` with a `.` entry, while one that only adds a key does not.
 */
import { FieldSet } from './field-set.js';
import { deepEqual, isObject } from './json-value.js';
import { field, type PathElement } from './path-element.js';
import { listItems, mapChild, viewFor, type SchemaRef, type TypedError } from './schema-view.js';

export interface Comparison {
  readonly added: FieldSet;
  readonly modified: FieldSet;
  readonly removed: FieldSet;
}

export interface ComparisonResult extends Comparison {
  /** list items that could not be named (kube fails the comparison on these) */
  readonly errors: TypedError[];
}

/** Compares `before` and `after` (both whole values of `schema`). */
export function compareObjects(before: unknown, after: unknown, schema: SchemaRef): ComparisonResult {
  const c = new Comparer();
  c.walk(before, after, schema, []);
  return { added: c.added, modified: c.modified, removed: c.removed, errors: c.errors };
}

/** The comparison without the given fields and everything below them. */
export function excludeFields(c: Comparison, ignored: FieldSet | undefined): Comparison {
  if (!ignored || ignored.isEmpty()) return c;
  return {
    added: c.added.recursiveDifference(ignored),
    modified: c.modified.recursiveDifference(ignored),
    removed: c.removed.recursiveDifference(ignored),
  };
}

const isEmptyContainer = (v: unknown): boolean =>
  v === undefined ||
  v === null ||
  (Array.isArray(v) ? v.length === 0 : isObject(v) && Object.keys(v).length === 0);

class Comparer {
  readonly added = FieldSet.empty();
  readonly modified = FieldSet.empty();
  readonly removed = FieldSet.empty();
  readonly errors: TypedError[] = [];

  private leaf(l: unknown, r: unknown, path: PathElement[]): void {
    if (l === undefined) this.added.insert(path);
    else if (r === undefined) this.removed.insert(path);
    else if (!deepEqual(l, r)) this.modified.insert(path);
  }

  private node(l: unknown, r: unknown, path: PathElement[]): void {
    if (l === undefined) this.added.insert(path);
    else if (r === undefined) this.removed.insert(path);
  }

  /** `undefined` means absent; null is a value. */
  walk(l: unknown, r: unknown, schema: SchemaRef, path: PathElement[]): void {
    const view = viewFor(schema, r !== undefined ? r : l);
    if (view.kind === 'scalar') return this.leaf(l, r, path);
    if (view.kind === 'list') {
      const la = Array.isArray(l) ? l : undefined;
      const ra = Array.isArray(r) ? r : undefined;
      const shapeless = (l !== undefined && l !== null && !la) || (r !== undefined && r !== null && !ra);
      if (view.atomic || shapeless || (isEmptyContainer(la) && isEmptyContainer(ra))) {
        return this.leaf(l, r, path);
      }
      const onError = (i: number, message: string): void => {
        this.errors.push({ path: [...path], message: `element ${i}: ${message}` });
      };
      const left = new Map(listItems(view, la ?? [], onError).map((it) => [it.id, it] as const));
      const right = new Map(listItems(view, ra ?? [], onError).map((it) => [it.id, it] as const));
      // repeated items count once, as their first occurrence
      const ids = new Set([...left.keys(), ...right.keys()]);
      for (const id of ids) {
        const li = left.get(id);
        const ri = right.get(id);
        const pe = (li ?? ri)!.pe;
        this.walk(li?.value, ri?.value, view.items, [...path, pe]);
      }
      return this.node(l, r, path);
    }
    const lo = isObject(l) ? l : undefined;
    const ro = isObject(r) ? r : undefined;
    const shapeless = (l !== undefined && l !== null && !lo) || (r !== undefined && r !== null && !ro);
    if (view.atomic || shapeless || (isEmptyContainer(lo) && isEmptyContainer(ro))) {
      return this.leaf(l, r, path);
    }
    const keys = new Set([...Object.keys(lo ?? {}), ...Object.keys(ro ?? {})]);
    for (const k of keys) {
      const child = mapChild(view, k);
      const lv = lo && Object.hasOwn(lo, k) ? lo[k] : undefined;
      const rv = ro && Object.hasOwn(ro, k) ? ro[k] : undefined;
      this.walk(lv, rv, child?.schema, [...path, field(k)]);
    }
    this.node(l, r, path);
  }
}
