/**
 * Moving from client-side to server-side apply with kubectl. An object kubectl applied client-side carries
 * its last applied configuration in an annotation, while its fields are owned by Update managers such as
 * `kubectl-client-side-apply`. When the manager `kubectl` applies server-side, conflicts on fields that
 * annotation vouches for (same value still live) are not conflicts; and while the annotation exists it is kept
 * in step with what `kubectl` applies, so a later client-side apply still works.
 */
import type { Schema } from '../../api/index.js';
import type { FieldSet } from '../managed-fields/field-set.js';
import { compareObjects } from '../managed-fields/compare.js';
import { typedFieldSet } from '../managed-fields/from-object.js';
import { deepCopy, goJson, isObject, type JsonObject } from '../managed-fields/json-value.js';
import { withZeroStructs } from '../managed-fields/zero-structs.js';

export const lastAppliedAnnotation = 'kubectl.kubernetes.io/last-applied-configuration';

/** Only this manager gets the client-side apply upgrade (others opt out by using another name). */
export const kubectlManager = 'kubectl';

/** kube's limit on the total size of an object's annotations (keys plus values), in bytes. */
const annotationsSizeLimit = 256 * 1024;

function annotationsOf(obj: unknown): JsonObject | undefined {
  if (!isObject(obj) || !isObject(obj.metadata)) return undefined;
  const a = obj.metadata.annotations;
  return isObject(a) ? a : undefined;
}

export function lastAppliedOf(obj: unknown): string | undefined {
  const value = annotationsOf(obj)?.[lastAppliedAnnotation];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * The fields the last-applied annotation of `live` vouches for: set by it, still holding its values. Undefined
 * when there is no usable annotation (missing, not JSON, another API version, not a valid object).
 */
export function allowedByLastApplied(
  live: unknown,
  schema: Schema,
  apiVersion: string,
): FieldSet | undefined {
  const text = lastAppliedOf(live);
  if (text === undefined) return undefined;
  let last: unknown;
  try {
    last = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(last) || last.apiVersion !== apiVersion) return undefined;
  const typed = typedFieldSet(last, schema, 'strict');
  if (typed.errors.length > 0) return undefined;
  const cmp = compareObjects(last, withZeroStructs(live, schema), schema);
  if (cmp.errors.length > 0) return undefined;
  return typed.set.difference(cmp.modified).difference(cmp.added).difference(cmp.removed);
}

const byteLength = (s: string): number => Buffer.byteLength(s, 'utf8');

/** `obj` with the annotation set to `applied` as kubectl would have recorded it (JSON, sorted keys). */
export function withLastApplied(obj: JsonObject, applied: JsonObject): JsonObject {
  const record = deepCopy(applied);
  const recordAnnotations = annotationsOf(record);
  if (recordAnnotations) delete recordAnnotations[lastAppliedAnnotation];
  const value = `${goJson(record)}\n`;

  const metadata = isObject(obj.metadata) ? { ...obj.metadata } : {};
  const annotations: JsonObject = { ...(annotationsOf(obj) ?? {}) };
  annotations[lastAppliedAnnotation] = value;
  let size = 0;
  for (const [k, v] of Object.entries(annotations)) size += byteLength(k) + byteLength(String(v));
  // too big to keep: the annotation goes rather than the write failing
  if (size > annotationsSizeLimit) delete annotations[lastAppliedAnnotation];
  metadata.annotations = annotations;
  return { ...obj, metadata };
}
