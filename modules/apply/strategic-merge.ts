/**
 * Strategic merge patch (kube's own patch format, used by kubectl apply/edit/patch): a JSON merge patch
 * whose list handling and directives come from the schema's patch markers. Behaviour follows
 * k8s.io/apimachinery's strategicpatch as kube-apiserver v1.32 runs it:
 * - null deletes a field; a map merges recursively unless its field's strategy is `replace`;
 * - `$patch: replace` in a map uses the map as sent, `$patch: delete` empties it, other values are errors;
 * - lists: see strategic-list.ts; `$setElementOrder/<list>`, `$deleteFromPrimitiveList/<list>` and
 *   `$retainKeys`: see strategic-directives.ts;
 * - a value the original lacks (or holds with another type) is taken as sent, minus its nulls and minus any
 *   map carrying `$patch`.
 */
import { ApiError } from '../api/index.js';
import type { Schema } from '../api/index.js';
import { goKind } from './go-format.js';
import { jsonTypeName } from './json-patch.js';
import { deepClone, guardDepth, has, isObject, put, type JsonObject } from './json-value.js';
import {
  applyRetainKeys,
  applySetElementOrder,
  deleteFromPrimitiveListPrefix,
  directiveTarget,
  discardNulls,
  removeDirectives,
} from './strategic-directives.js';
import { errors, StrategicMergeError } from './strategic-errors.js';
import { mergeSliceHandler } from './strategic-list.js';
import { lookupField, rootNode, type SchemaNode } from './strategic-schema.js';

function mapDirective(directive: unknown, patch: JsonObject): JsonObject {
  if (directive === 'replace') {
    delete patch.$patch;
    return patch;
  }
  if (directive === 'delete') return {};
  throw errors.badPatchType(directive, patch);
}

/** Sets a value taken over whole, cleaned the way kube cleans it (a bare directive map sets nothing). */
function takeOver(target: JsonObject, key: string, value: unknown): void {
  discardNulls(value);
  const kept = removeDirectives(value);
  if (kept) put(target, key, kept.value);
  else delete target[key];
}

/** Merges `patch` into `original`; both are working copies and are changed. */
export function mergeMap(original: JsonObject, patch: JsonObject, node: SchemaNode): JsonObject {
  if (has(patch, '$patch')) return mapDirective(patch.$patch, patch);
  applyRetainKeys(original, patch);
  applySetElementOrder(original, patch, node, mergeMap);

  for (const patchKey of Object.keys(patch)) {
    const value = patch[patchKey];
    let key = patchKey;
    let isDeleteList = false;
    if (patchKey.startsWith(deleteFromPrimitiveListPrefix)) {
      const target = directiveTarget(patchKey, deleteFromPrimitiveListPrefix, errors.badPrimitiveList);
      isDeleteList = true;
      if (target !== '') key = target;
    }
    if (value === null) {
      delete original[key];
      continue;
    }
    if (!has(original, key)) {
      if (!isDeleteList) takeOver(original, key, value);
      continue;
    }
    const current = original[key];
    const kind = goKind(current);
    if (kind !== goKind(value)) {
      if (!isDeleteList) takeOver(original, key, value);
      continue;
    }
    if (kind === 'map') {
      const field = lookupField(node, key);
      const merged =
        field.strategy === 'replace' ? value : mergeMap(current as JsonObject, value as JsonObject, field);
      put(original, key, merged);
    } else if (kind === 'slice') {
      const field = lookupField(node, key);
      put(
        original,
        key,
        mergeSliceHandler(current as unknown[], value as unknown[], field, isDeleteList, mergeMap),
      );
    } else {
      put(original, key, value);
    }
  }
  return original;
}

/**
 * Applies a strategic merge patch body (parsed JSON) to `doc` using the kind's schema. `doc` and the patch
 * are left untouched. A body that is not an object is kube's 400; a null body changes nothing.
 */
export function applyStrategicMergePatch(doc: unknown, patch: unknown, schema: Schema | undefined): unknown {
  if (patch === null || patch === undefined) return deepClone(doc);
  if (!isObject(patch)) {
    throw ApiError.badRequest(
      `json: cannot unmarshal ${jsonTypeName(patch)} into Go value of type map[string]interface {}`,
    );
  }
  const original: JsonObject = isObject(doc) ? deepClone(doc) : {};
  const kind = typeof original.kind === 'string' ? original.kind : '';
  try {
    return guardDepth(() => mergeMap(original, deepClone(patch), rootNode(schema, kind)));
  } catch (err) {
    if (err instanceof StrategicMergeError) throw err.toApiError();
    throw err;
  }
}
