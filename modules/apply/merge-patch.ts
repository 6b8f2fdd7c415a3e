/**
 * JSON Merge Patch (RFC 7386) as kube applies it (evanphx/json-patch v4 MergePatch): null deletes a member,
 * objects merge recursively, anything else replaces. Like the library, nulls are also dropped from objects
 * nested in a value that is newly set (including objects inside arrays), and not from a non-object value
 * replacing an object.
 */
import { ApiError } from '../api/index.js';
import { deepClone, get, guardDepth, has, isObject, put, type JsonObject } from './json-value.js';

/** Removes null members from objects, at any depth (array elements that are null stay). */
function pruneNulls(value: unknown): unknown {
  if (Array.isArray(value)) {
    value.forEach((v) => pruneNulls(v));
  } else if (isObject(value)) {
    for (const key of Object.keys(value)) {
      if (value[key] === null) delete value[key];
      else pruneNulls(value[key]);
    }
  }
  return value;
}

/** Merges `patch` members into `target` in place; both are working copies. */
function mergeInto(target: JsonObject, patch: JsonObject): JsonObject {
  for (const key of Object.keys(patch)) {
    const value = patch[key];
    if (value === null) {
      delete target[key];
      continue;
    }
    const current = get(target, key);
    if (!has(target, key) || current === null || !isObject(current)) {
      put(target, key, pruneNulls(value));
    } else if (isObject(value)) {
      mergeInto(current, value);
    } else {
      put(target, key, value);
    }
  }
  return target;
}

/**
 * The RFC 7386 MergePatch function (target and patch are any JSON values). Inputs are not changed.
 */
export function mergePatch(target: unknown, patch: unknown): unknown {
  return guardDepth(() => {
    const work = deepClone(patch);
    if (!isObject(work)) return Array.isArray(work) ? pruneNulls(work) : work;
    return isObject(target) ? mergeInto(deepClone(target), work) : pruneNulls(work);
  });
}

/**
 * A merge patch request on a stored object. kube rejects a patch that is null or a scalar with 400
 * `Invalid JSON Patch`; an array replaces the whole object (and the decode of the result fails later).
 */
export function applyMergePatch(doc: unknown, patch: unknown): unknown {
  if (patch === null || patch === undefined || (!isObject(patch) && !Array.isArray(patch))) {
    throw ApiError.badRequest('Invalid JSON Patch');
  }
  return mergePatch(doc, patch);
}
