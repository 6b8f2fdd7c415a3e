/**
 * PATCH: read the object, apply the patch (JSON patch, merge patch, strategic merge) to it, decode the result
 * like any request body, and write it as an update at the revision that was read — retrying from the read when
 * someone else wrote in between, unless the patch itself names a resourceVersion.
 */
import { isPlainObject, type KubeObject } from '../../modules/api/object.js';
import { ApiError } from '../../modules/api/status.js';
import {
  applyJsonPatch,
  applyMergePatch,
  applyStrategicMergePatch,
  patchTypeOf,
  supportedPatchTypes,
  supportsStrategicMerge,
} from '../../modules/apply/index.js';
import { decodeBody } from '../../modules/codec/index.js';
import { groupVersion } from '../../modules/registry/definition.js';
import type { GenericStore, WriteOptions, WriteResult } from '../../modules/registry/generic-store.js';
import { decodeObject, strictMessages } from '../../modules/registry/schema/index.js';
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
  const type = patchTypeOf(contentType);
  if (!type || (type === 'strategic' && !supportsStrategicMerge(def))) {
    throw ApiError.unsupportedMediaType(contentType, supportedPatchTypes(def));
  }
  if (type === 'apply') {
    throw ApiError.unsupportedMediaType(
      contentType,
      supportedPatchTypes(def).filter((t) => !t.startsWith('application/apply')),
    );
  }
  const body = r.req.body instanceof Buffer ? r.req.body : undefined;
  if (!body || body.length === 0) throw ApiError.badRequest('the request body must not be empty for a patch');
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
