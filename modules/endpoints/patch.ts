/**
 * PATCH: read the object, apply the patch (JSON patch, merge patch, strategic merge) to it, decode the result
 * like any request body, and write it as an update at the revision that was read — retrying from the read when
 * someone else wrote in between, unless the patch itself names a resourceVersion.
 */
import { isPlainObject, type KubeObject } from '../api/index.js';
import { ApiError } from '../api/index.js';
import {
  apply as applyConfiguration,
  applyJsonPatch,
  applyMergePatch,
  applyStrategicMergePatch,
  patchTypeOf,
  supportedPatchTypes,
  supportsStrategicMerge,
} from '../apply/index.js';
import { applyPatchCborMediaType, decodeCbor } from '../codec/index.js';
import { decodeBody } from '../codec/index.js';
import { groupVersion } from '../registry/index.js';
import type { GenericStore, WriteOptions, WriteResult } from '../registry/index.js';
import { ignoredFields } from '../registry/index.js';
import { decodeObject, strictMessages } from '../schema/index.js';
import type { FieldValidation } from './decode.js';
import type { ResourceRequest } from './resources.js';

const RETRIES = 5;

export interface PatchResult extends WriteResult {
  warnings: string[];
}

export async function patchObject(
  generic: GenericStore,
  r: ResourceRequest,
  options: WriteOptions,
  validation: FieldValidation,
): Promise<PatchResult> {
  const { def, info } = r;
  const contentType = r.req.headers['content-type'] ?? '';
  // apply configurations may also come as CBOR while its gate is on (no CBOR form of the other patch types)
  const cborApply = !!r.cbor && contentType.split(';', 1)[0] === applyPatchCborMediaType;
  const type = cborApply ? 'apply' : patchTypeOf(contentType);
  if (!type || (type === 'strategic' && !supportsStrategicMerge(def))) {
    const supported = supportedPatchTypes(def);
    throw ApiError.unsupportedMediaType(r.cbor ? [...supported, applyPatchCborMediaType] : supported);
  }
  const body = r.req.body instanceof Buffer ? r.req.body : undefined;
  if (!body || body.length === 0) throw ApiError.badRequest('the request body must not be empty for a patch');
  if (type === 'apply') {
    const applied = cborApply ? decodeCbor(body) : decodeBody(body, 'yaml');
    return serverSideApply(generic, r, options, applied, validation);
  }
  if (r.query.force !== undefined) throw ApiError.badRequest('force is only allowed for apply patches');
  const patch = decodeBody(body, 'json');
  const namesRv =
    isPlainObject(patch) && isPlainObject(patch.metadata) && patch.metadata.resourceVersion !== undefined;
  for (let attempt = 0; ; attempt++) {
    const current = await generic.get(def, info.namespace, info.name);
    let patched: unknown;
    if (type === 'json') patched = applyJsonPatch(current, patch);
    else if (type === 'merge') patched = applyMergePatch(current, patch);
    else patched = applyStrategicMergePatch(current, patch, def.schema);
    if (!isPlainObject(patched)) throw ApiError.badRequest(`the patched object must be a ${def.kind} object`);
    const { object, unknownFields } = decodeObject(patched, def.schema, {
      kind: def.kind,
      version: info.version,
    });
    const next = object as KubeObject;
    next.apiVersion = groupVersion(def.group, info.version);
    next.kind = def.kind;
    if (!isPlainObject(next.metadata)) next.metadata = {};
    if (!next.metadata.resourceVersion) next.metadata.resourceVersion = current.metadata.resourceVersion;
    const messages = validation === 'Ignore' ? [] : strictMessages(unknownFields);
    if (validation === 'Strict' && messages.length > 0) {
      throw ApiError.badRequest(`strict decoding error: ${messages.join(', ')}`);
    }
    try {
      return { ...(await generic.update(def, info.namespace, info.name, next, options)), warnings: messages };
    } catch (e) {
      const conflict = e instanceof ApiError && e.reason === 'Conflict';
      if (!conflict || namesRv || attempt >= RETRIES) throw e;
    }
  }
}

/**
 * Server-side apply: merge the applied configuration into the live object (or create it), settling field
 * ownership; a field another manager owns with a different value is a 409 unless `force=true`.
 */
async function serverSideApply(
  generic: GenericStore,
  r: ResourceRequest,
  options: WriteOptions,
  body: unknown,
  validation: FieldValidation,
): Promise<PatchResult> {
  const { def, info } = r;
  if (!isPlainObject(body))
    throw ApiError.badRequest(`the applied configuration must be a ${def.kind} object`);
  // unknown fields are reported (Warn/Strict) and dropped before the merge, as for any other body
  const decoded = decodeObject(body, def.schema, { kind: def.kind, version: info.version });
  const applied = decoded.object as Record<string, unknown>;
  const messages = validation === 'Ignore' ? [] : strictMessages(decoded.unknownFields);
  if (validation === 'Strict' && messages.length > 0) {
    throw ApiError.badRequest(`strict decoding error: ${messages.join(', ')}`);
  }
  const manager = r.query.fieldManager;
  if (!manager) throw ApiError.badRequest('PATCH /apply requires fieldManager query parameter');
  if (!isPlainObject(applied))
    throw ApiError.badRequest(`the applied configuration must be a ${def.kind} object`);
  const meta = isPlainObject(applied.metadata) ? applied.metadata : undefined;
  if (meta?.name !== undefined && meta.name !== info.name) {
    throw ApiError.badRequest(
      `the name of the object (${String(meta.name)}) does not match the name on the URL (${info.name})`,
    );
  }
  const force = r.query.force === 'true' || r.query.force === '1';
  const apiVersion = groupVersion(def.group, info.version);
  const written = { ...options, manager: undefined };
  for (let attempt = 0; ; attempt++) {
    const live = await generic.get(def, info.namespace, info.name).catch((e) => {
      if (e instanceof ApiError && e.code === 404) return undefined;
      throw e;
    });
    const result = applyConfiguration(live, structuredClone(applied), manager, def.schema, {
      force,
      apiVersion,
      kind: def.kind,
      subresource: info.subresource || undefined,
      ignoredFields: ignoredFields(def, info.subresource || undefined),
    });
    const { object } = decodeObject(result.object, def.schema, { kind: def.kind, version: info.version });
    const next = object as KubeObject;
    next.apiVersion = apiVersion;
    next.kind = def.kind;
    next.metadata = { ...next.metadata, name: info.name };
    if (result.managedFields.length > 0) next.metadata.managedFields = result.managedFields;
    else delete next.metadata.managedFields;
    try {
      if (!live) {
        return {
          object: await generic.create(def, info.namespace, next, written),
          created: true,
          warnings: [],
        };
      }
      next.metadata.resourceVersion = live.metadata.resourceVersion;
      return { ...(await generic.update(def, info.namespace, info.name, next, written)), warnings: messages };
    } catch (e) {
      const retry = e instanceof ApiError && (e.reason === 'Conflict' || e.reason === 'AlreadyExists');
      if (!retry || attempt >= RETRIES) throw e;
    }
  }
}
