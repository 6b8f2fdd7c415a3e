/**
 * Removing owned fields and items from a value (structured-merge-diff's RemoveItems): a member of the set
 * removes that map key or list item with everything below it; a child set descends into it. Atomic values
 * are never entered. A granular map or list left empty by removals becomes null, as kube leaves it (the
 * caller drops those nulls from the final object; see dropRemovalNulls).
 */
import type { FieldSet } from '../managed-fields/field-set.js';
import { isObject, setOwn, type JsonObject } from '../managed-fields/json-value.js';
import { field } from '../managed-fields/path-element.js';
import { listItems, mapChild, viewFor, type SchemaRef } from '../managed-fields/schema-view.js';

export function removeItems(value: unknown, remove: FieldSet, schema: SchemaRef): unknown {
  if (remove.isEmpty()) return value;
  const view = viewFor(schema, value);
  if (view.kind === 'scalar' || view.atomic) return value;
  if (view.kind === 'list') {
    if (!Array.isArray(value) || value.length === 0) return value;
    const out: unknown[] = [];
    const named = new Map(listItems(view, value, () => {}).map((it) => [it.value, it.pe] as const));
    for (const item of value) {
      const pe = named.get(item);
      if (!pe) {
        out.push(item);
        continue;
      }
      if (remove.hasMember(pe)) continue;
      const below = remove.withPrefix(pe);
      out.push(below.isEmpty() ? item : removeItems(item, below, view.items));
    }
    return out.length > 0 ? out : null;
  }
  if (!isObject(value) || Object.keys(value).length === 0) return value;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(value)) {
    const pe = field(k);
    if (remove.hasMember(pe)) continue;
    const below = remove.withPrefix(pe);
    setOwn(out, k, below.isEmpty() ? v : removeItems(v, below, mapChild(view, k)?.schema));
  }
  return Object.keys(out).length > 0 ? out : null;
}

/**
 * `after` (a pruned copy of `before`) without the nulls pruning left where `before` had a value: kube's typed
 * objects drop those when converted back, so they never reach storage.
 */
export function dropRemovalNulls(after: unknown, before: unknown, schema: SchemaRef): unknown {
  const view = viewFor(schema, after);
  if (view.kind === 'scalar' || view.atomic) return after;
  if (view.kind === 'list') {
    if (!Array.isArray(after) || !Array.isArray(before)) return after;
    const earlier = new Map(listItems(view, before, () => {}).map((it) => [it.id, it.value] as const));
    const items = listItems(view, after, () => {});
    if (items.length !== after.length) return after;
    return items.map((it) => dropRemovalNulls(it.value, earlier.get(it.id), view.items));
  }
  if (!isObject(after) || !isObject(before)) return after;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(after)) {
    const was = Object.hasOwn(before, k) ? before[k] : undefined;
    if (v === null && was !== null && was !== undefined) continue;
    setOwn(out, k, dropRemovalNulls(v, was, mapChild(view, k)?.schema));
  }
  return out;
}
