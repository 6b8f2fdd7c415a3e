/**
 * The request's object for its audit event: the body as sent (JSON or YAML; other encodings are left out), and
 * the objectRef fields kube completes from a created or updated object's metadata.
 */
import { parse as parseYaml } from 'yaml';
import { isPlainObject } from '../api/index.js';
import type { ObjectReference } from './event.js';

export function requestBodyObject(body: Buffer | undefined, contentType: string | undefined): unknown {
  if (!body || body.length === 0) return undefined;
  const type = (contentType ?? 'application/json').split(';', 1)[0].trim().toLowerCase();
  try {
    if (type.endsWith('json')) return JSON.parse(body.toString('utf8'));
    if (type.endsWith('yaml')) return parseYaml(body.toString('utf8'));
  } catch {
    // a body the request's own decoding refuses: the event goes without it
  }
  return undefined;
}

const REF_ORDER = [
  'resource',
  'namespace',
  'name',
  'uid',
  'apiGroup',
  'apiVersion',
  'resourceVersion',
  'subresource',
] as const;

/** kube's LogRequestObject: empty objectRef fields taken from the object's metadata (fields in kube's order). */
export function completeObjectRef(ref: ObjectReference, obj: unknown): ObjectReference {
  if (!isPlainObject(obj) || !isPlainObject(obj.metadata)) return ref;
  const m = obj.metadata;
  const full: ObjectReference = { ...ref };
  for (const key of ['namespace', 'name', 'uid', 'resourceVersion'] as const)
    if (!full[key] && typeof m[key] === 'string' && m[key]) full[key] = m[key];
  const out: ObjectReference = {};
  for (const key of REF_ORDER) if (full[key] !== undefined) out[key] = full[key];
  return out;
}
