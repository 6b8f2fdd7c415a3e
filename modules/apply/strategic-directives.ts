/**
 * The directives strategic merge reads from keys rather than from `$patch`: `$setElementOrder/<list>`
 * (the final order of a list's elements), `$deleteFromPrimitiveList/<list>` (parsed here, applied by the
 * list merge) and `$retainKeys` (the only fields the object may keep). Also the clean-up kube does on a
 * value it takes over whole because the original has nothing to merge it with.
 */
import { goEqual } from './go-format.js';
import { has, isObject, put, type JsonObject } from './json-value.js';
import { errors, StrategicMergeError } from './strategic-errors.js';
import { mergeSliceHandler, sliceElementKind, type MergeMaps } from './strategic-list.js';
import { normalizeElementOrder, partitionMaps, partitionScalars } from './strategic-order.js';
import { lookupField, type SchemaNode } from './strategic-schema.js';

export const deleteFromPrimitiveListPrefix = '$deleteFromPrimitiveList';
export const setElementOrderPrefix = '$setElementOrder';

/** The list name after `<prefix>/`; a key without the slash is malformed. */
export function directiveTarget(key: string, prefix: string, malformed: () => StrategicMergeError): string {
  const slash = key.indexOf('/');
  if (slash < 0 || key.slice(0, slash) !== prefix) throw malformed();
  return key.slice(slash + 1);
}

/** Drops null members at any depth (kube does this to a value the original does not have yet). */
export function discardNulls(value: unknown): void {
  if (Array.isArray(value)) {
    value.forEach(discardNulls);
  } else if (isObject(value)) {
    for (const key of Object.keys(value)) {
      if (value[key] === null) delete value[key];
      else discardNulls(value[key]);
    }
  }
}

/**
 * Drops every map that carries `$patch` (with its key or list slot); returns undefined when the value
 * itself is such a map.
 */
export function removeDirectives(value: unknown): { value: unknown } | undefined {
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const v of value) {
      const kept = removeDirectives(v);
      if (kept) out.push(kept.value);
    }
    return { value: out };
  }
  if (isObject(value)) {
    if (has(value, '$patch')) return undefined;
    for (const key of Object.keys(value)) {
      const kept = removeDirectives(value[key]);
      if (kept) value[key] = kept.value;
      else delete value[key];
    }
  }
  return { value };
}

/** `$retainKeys`: every non-null patch field must be listed, and original fields not listed go. */
export function applyRetainKeys(original: JsonObject, patch: JsonObject): void {
  if (!has(patch, '$retainKeys')) return;
  const list = patch.$retainKeys;
  delete patch.$retainKeys;
  if (!Array.isArray(list)) throw errors.badRetainKeys();
  const keep = new Set(list.filter((v): v is string => typeof v === 'string'));
  for (const [key, value] of Object.entries(patch)) {
    if (
      value === null ||
      key.startsWith(deleteFromPrimitiveListPrefix) ||
      key.startsWith(setElementOrderPrefix)
    ) {
      continue;
    }
    if (!keep.has(key)) throw errors.badRetainKeys();
  }
  for (const key of Object.keys(original)) {
    if (!keep.has(key)) delete original[key];
  }
}

function sameElement(left: unknown, right: unknown, mergeKey: string): boolean {
  if (mergeKey === '') return goEqual(left, right);
  if (!isObject(left)) throw errors.badArgType('map', left);
  if (!isObject(right)) throw errors.badArgType('map', right);
  if (!has(left, mergeKey)) throw errors.noMergeKey(left, mergeKey);
  if (!has(right, mergeKey)) throw errors.noMergeKey(right, mergeKey);
  return goEqual(left[mergeKey], right[mergeKey]);
}

/** The patch's own elements must appear in `$setElementOrder` in the same relative order. */
function checkOrderCoversPatch(patchList: unknown[], order: unknown[], mergeKey: string): void {
  if (order.length === 0 || patchList.length === 0) return;
  let items = patchList;
  if (mergeKey !== '') {
    for (const v of patchList) if (!isObject(v)) throw errors.badArgType('map', v);
    items = patchList.filter((v) => (v as JsonObject).$patch !== 'delete');
  }
  let p = 0;
  let s = 0;
  while (p < items.length && s < order.length) {
    const item = items[p];
    if (isObject(item) && has(item, '$patch')) {
      p++;
      continue;
    }
    if (sameElement(item, order[s], mergeKey)) p++;
    s++;
  }
  if (p < items.length) throw errors.orderMismatch(patchList, order);
}

/** Processes each `$setElementOrder/<list>` of `patch` together with `<list>`, removing both from it. */
export function applySetElementOrder(
  original: JsonObject,
  patch: JsonObject,
  node: SchemaNode,
  mergeMaps: MergeMaps,
): void {
  for (const key of Object.keys(patch)) {
    if (!key.startsWith(setElementOrderPrefix) || !has(patch, key)) continue;
    const order = patch[key];
    delete patch[key];
    if (!Array.isArray(order)) throw errors.badArgType('slice', order);
    const listKey = directiveTarget(key, setElementOrderPrefix, errors.badSetElementOrder);
    const foundOriginal = has(original, listKey);
    const foundPatch = has(patch, listKey);
    const originalList = foundOriginal ? original[listKey] : [];
    const patchList = foundPatch ? patch[listKey] : [];
    if (!Array.isArray(originalList)) throw errors.badArgType('slice', originalList);
    if (!Array.isArray(patchList)) throw errors.badArgType('slice', patchList);
    const field = lookupField(node, listKey);
    checkOrderCoversPatch(patchList, order, field.mergeKey);

    let merged: unknown[];
    if (foundOriginal && foundPatch)
      merged = mergeSliceHandler(originalList, patchList, field, false, mergeMaps);
    else if (foundPatch) merged = removeDirectives(patchList)!.value as unknown[];
    else if (foundOriginal) merged = originalList;
    else continue;

    const [inOrder, serverOnly] =
      field.mergeKey === '' ? partitionScalars(merged, order) : partitionMaps(merged, order, field.mergeKey);
    const kind = sliceElementKind([originalList, patchList]);
    put(
      original,
      listKey,
      normalizeElementOrder(inOrder, serverOnly, order, originalList, field.mergeKey, kind === 'map'),
    );
    delete patch[listKey];
  }
}
