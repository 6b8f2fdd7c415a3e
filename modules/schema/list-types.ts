/**
 * Uniqueness in lists marked `x-kubernetes-list-type: set` (no item twice) and `map` (no two items with the
 * same values of `x-kubernetes-list-map-keys`), as kube checks them for custom resources after the schema
 * validation. Each repeat is reported once, at the index of its second occurrence, with the duplicated item
 * (set) or its keys (map) as Go prints them: `spec.ports[1]: Duplicate value:
 * map[string]interface {}{"name":"http"}`.
 *
 * kube checks the old object first on update and skips the new one when the old one already fails
 * (`validateListTypesUpdate`).
 */
import { isPlainObject, type FieldError, type Schema } from '../api/index.js';
import { errorValueText, goJSON } from './go-values.js';
import { anyBelow, compileValueNode, type ValueNode } from './value-node.js';

const hasListType = (n: ValueNode): boolean => n.listType === 'set' || n.listType === 'map';

/** A map-type list item without its key: all such items share one identity, as in kube. */
const unspecifiedKey = Symbol('unspecified');

function child(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

function duplicate(field: string, value: unknown): FieldError {
  return { type: 'Duplicate', field, value, valueText: errorValueText(value) };
}

/** Indexes of the second occurrence of each repeated item (maps and lists compared by their JSON). */
function repeats(items: unknown[]): number[] {
  const out: number[] = [];
  if (items.length <= 1) return out;
  const scalars = new Map<unknown, number>();
  const compounds = new Map<unknown, number>();
  for (let i = 0; i < items.length; i++) {
    const x = items[i];
    const compound = x !== null && typeof x === 'object';
    const seen = compound ? compounds : scalars;
    const key = compound ? goJSON(x) : (x ?? null);
    const times = seen.get(key) ?? 0;
    seen.set(key, times + 1);
    if (times === 1) out.push(i);
  }
  return out;
}

function checkMap(path: string, node: ValueNode, list: unknown[], errs: FieldError[]): void {
  for (let i = 0; i < list.length; i++) {
    const x = list[i];
    if (x !== null && !isPlainObject(x)) {
      const e: FieldError = {
        type: 'Invalid',
        field: `${path}[${i}]`,
        value: x,
        valueText: errorValueText(x),
        detail: 'must be an object for an array of list-type map',
      };
      errs.push(e);
      return;
    }
  }
  if (list.length <= 1) return;
  const keys = node.listMapKeys ?? [];
  if (keys.length === 1) {
    const keyField = keys[0];
    const values = list.map((x) => {
      const item = x as Record<string, unknown> | null;
      return item && Object.prototype.hasOwnProperty.call(item, keyField) ? item[keyField] : unspecifiedKey;
    });
    for (const i of repeats(values)) {
      const k = values[i];
      errs.push(duplicate(`${path}[${i}]`, k === unspecifiedKey ? {} : { [keyField]: k }));
    }
    return;
  }
  const keyObjects = list.map((x) => {
    const key: Record<string, unknown> = {};
    const item = x as Record<string, unknown> | null;
    if (item) for (const f of keys) if (Object.prototype.hasOwnProperty.call(item, f)) key[f] = item[f];
    return key;
  });
  for (const i of repeats(keyObjects)) errs.push(duplicate(`${path}[${i}]`, keyObjects[i]));
}

function walk(path: string, node: ValueNode, value: unknown, errs: FieldError[]): void {
  if (!anyBelow(node, 'listType', hasListType)) return;
  if (Array.isArray(value)) {
    if (node.listType === 'set') {
      for (const i of repeats(value)) errs.push(duplicate(`${path}[${i}]`, value[i]));
    } else if (node.listType === 'map') {
      checkMap(path, node, value, errs);
    }
    if (node.items) for (let i = 0; i < value.length; i++) walk(`${path}[${i}]`, node.items, value[i], errs);
    return;
  }
  if (!isPlainObject(value)) return;
  if (node.additional) for (const k in value) walk(`${path}[${k}]`, node.additional, value[k], errs);
  if (node.props)
    for (const k in value) {
      const prop = node.props.get(k);
      if (prop) walk(child(path, k), prop, value[k], errs);
    }
}

/** The set and map-list duplicates in `value`; `path` prefixes the fields (none for a whole resource). */
export function validateListTypes(schema: Schema, value: unknown, path = ''): FieldError[] {
  const errs: FieldError[] = [];
  walk(path, compileValueNode(schema), value, errs);
  return errs;
}

/**
 * On update kube only checks the new object's lists when the old object's pass: an object stored before a
 * list became a set or map can still be updated.
 */
export function validateListTypesUpdate(
  schema: Schema,
  value: unknown,
  old: unknown,
  path = '',
): FieldError[] {
  if (validateListTypes(schema, old, path).length > 0) return [];
  return validateListTypes(schema, value, path);
}
