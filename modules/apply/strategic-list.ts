/**
 * Strategic merge of two lists. Lists whose field has patch strategy `merge` are merged: scalars as a set
 * (or, under `$deleteFromPrimitiveList/<field>`, with the patch's values removed), maps by their merge key,
 * where patch elements may carry `$patch: delete` (drop the element with that key) or `$patch: replace`
 * (the patch's elements become the whole list). Other lists are replaced by the patch's list.
 */
import { goKind, type GoKind } from './go-format.js';
import { has, isObject, type JsonObject } from './json-value.js';
import { errors, StrategicMergeError } from './strategic-errors.js';
import {
  dedupeScalars,
  hashKey,
  normalizeElementOrder,
  partitionMaps,
  partitionScalars,
} from './strategic-order.js';
import { elementKind, elementNode, type FieldMeta, type SchemaNode } from './strategic-schema.js';

export type MergeMaps = (original: JsonObject, patch: JsonObject, node: SchemaNode) => JsonObject;

/** The one Go type all elements share; lists of lists and mixed lists are refused. */
export function sliceElementKind(lists: unknown[][]): GoKind {
  let kind: GoKind | undefined;
  for (const list of lists) {
    for (const v of list) {
      const k = goKind(v);
      if (kind === undefined) {
        if (k === 'slice') throw errors.noListOfLists();
        kind = k;
      } else if (k !== kind) {
        throw errors.elementTypes(lists);
      }
    }
  }
  if (kind === undefined) throw new StrategicMergeError('no elements in any of the given slices');
  return kind;
}

function deleteFromSlice(current: unknown[], toDelete: unknown[]): unknown[] {
  const gone = new Set(toDelete.map(hashKey).filter((k) => k !== undefined));
  return current.filter((v) => {
    const key = hashKey(v);
    return key === undefined || !gone.has(key);
  });
}

function sameKey(a: JsonObject, b: JsonObject, mergeKey: string): boolean {
  const ka = hashKey(a[mergeKey] ?? null);
  return ka !== undefined && ka === hashKey(b[mergeKey] ?? null);
}

/** Applies the `$patch` elements of a list of maps; returns the remaining list and patch elements. */
function applyListDirectives(
  original: unknown[],
  patch: unknown[],
  mergeKey: string,
): [unknown[], unknown[]] {
  const rest: unknown[] = [];
  let replace = false;
  let base = original;
  for (const v of patch) {
    const item = v as JsonObject;
    if (!has(item, '$patch')) {
      rest.push(item);
      continue;
    }
    const directive = item.$patch;
    if (directive === 'delete') {
      if (!has(item, mergeKey)) throw errors.noMergeKey(item, mergeKey);
      base = base.filter((o) => !(isObject(o) && has(o, mergeKey) && sameKey(o, item, mergeKey)));
    } else if (directive === 'replace') {
      replace = true;
    } else if (directive === 'merge') {
      throw errors.mergeInList();
    } else {
      throw errors.badPatchType(directive, item);
    }
  }
  return replace ? [rest, []] : [base, rest];
}

/** Merges each patch element into the element with the same merge-key value, or appends it. */
function mergeByKey(
  original: unknown[],
  patch: unknown[],
  mergeKey: string,
  elem: SchemaNode,
  mergeMaps: MergeMaps,
): unknown[] {
  const result = [...original];
  const position = new Map<string, number>();
  const remember = (item: unknown, at: number) => {
    if (!isObject(item) || !has(item, mergeKey)) return;
    const key = hashKey(item[mergeKey] ?? null);
    if (key !== undefined && !position.has(key)) position.set(key, at);
  };
  result.forEach(remember);
  for (const v of patch) {
    const item = v as JsonObject;
    if (!has(item, mergeKey)) throw errors.noMergeKey(item, mergeKey);
    const key = hashKey(item[mergeKey] ?? null);
    const at = key === undefined ? undefined : position.get(key);
    if (at !== undefined) {
      result[at] = mergeMaps(result[at] as JsonObject, item, elem);
    } else {
      // kube appends a new element as sent, nested directives and nulls included
      result.push(item);
      remember(item, result.length - 1);
    }
  }
  return result;
}

export function mergeSlice(
  original: unknown[],
  patch: unknown[],
  elem: SchemaNode,
  mergeKey: string,
  isDeleteList: boolean,
  mergeMaps: MergeMaps,
): unknown[] {
  if (original.length === 0 && patch.length === 0) return original;
  const kind = sliceElementKind([original, patch]);
  let base = original;
  let patchItems = patch;
  let merged: unknown[];
  if (kind !== 'map') {
    if (isDeleteList) return deleteFromSlice(original, patch);
    merged = dedupeScalars([...original, ...patch]);
  } else {
    if (mergeKey === '') throw errors.noMergeKeyDeclared(elementKind(elem));
    [base, patchItems] = applyListDirectives(original, patch, mergeKey);
    merged = mergeByKey(base, patchItems, mergeKey, elem, mergeMaps);
  }
  const [inPatch, serverOnly] =
    mergeKey === '' ? partitionScalars(merged, patchItems) : partitionMaps(merged, patchItems, mergeKey);
  return normalizeElementOrder(inPatch, serverOnly, patchItems, base, mergeKey, kind === 'map');
}

/** A list field: merged when its strategy says so (or for a deletion list), else replaced. */
export function mergeSliceHandler(
  original: unknown[],
  patch: unknown[],
  field: FieldMeta,
  isDeleteList: boolean,
  mergeMaps: MergeMaps,
): unknown[] {
  if (field.strategy === 'merge' || isDeleteList) {
    return mergeSlice(original, patch, elementNode(field), field.mergeKey, isDeleteList, mergeMaps);
  }
  return patch;
}
