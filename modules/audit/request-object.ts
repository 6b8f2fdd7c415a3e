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

/** a string field of the metadata, if set */
function metaString(m: Record<string, unknown>, key: string): string | undefined {
  const v = m[key];
  return typeof v === 'string' && v ? v : undefined;
}

/** kube's LogRequestObject: empty objectRef fields taken from the object's metadata (fields in kube's order). */
export function completeObjectRef(ref: ObjectReference, obj: unknown): ObjectReference {
  if (!isPlainObject(obj) || !isPlainObject(obj.metadata)) return ref;
  const m = obj.metadata;
  const out: ObjectReference = {};
  if (ref.resource !== undefined) out.resource = ref.resource;
  const namespace = ref.namespace || metaString(m, 'namespace');
  if (namespace !== undefined) out.namespace = namespace;
  const name = ref.name || metaString(m, 'name');
  if (name !== undefined) out.name = name;
  const uid = ref.uid || metaString(m, 'uid');
  if (uid !== undefined) out.uid = uid;
  if (ref.apiGroup !== undefined) out.apiGroup = ref.apiGroup;
  if (ref.apiVersion !== undefined) out.apiVersion = ref.apiVersion;
  const resourceVersion = ref.resourceVersion || metaString(m, 'resourceVersion');
  if (resourceVersion !== undefined) out.resourceVersion = resourceVersion;
  if (ref.subresource !== undefined) out.subresource = ref.subresource;
  return out;
}
