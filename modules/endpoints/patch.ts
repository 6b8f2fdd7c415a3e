/**
 * PATCH: the patch (JSON patch, merge patch, strategic merge, server-side apply) is applied to the stored
 * object inside the generic store's update loop, so a patch that lost a race is re-applied to the newer
 * object, unless the patch itself names a resourceVersion.
 */
import {
  ApiError,
  fieldError,
  groupVersion,
  isPlainObject,
  queryFlag,
  type FieldError,
  type KubeObject,
} from '../api/index.js';
import {
  apply as applyConfiguration,
  applyJsonPatch,
  applyMergePatch,
  applyStrategicMergePatch,
  patchTypeOf,
  supportedPatchTypes,
  supportsStrategicMerge,
} from '../apply/index.js';
import { applyPatchCborMediaType, checkText, decodeBody, decodeCbor } from '../codec/index.js';
import { ignoredFields, type GenericStore, type UpdatedObject } from '../registry/index.js';
import { decodeObject, strictMessages } from '../schema/index.js';
import { parseFieldValidation, type FieldValidation } from './decode.js';
import { bodyOf, writeOptions, type ResourceRequest } from './request.js';
import { addWarnings, send } from './respond.js';

export async function patch(generic: GenericStore, r: ResourceRequest): Promise<unknown> {
  const { def, info } = r;
  const contentType = r.req.headers['content-type'] ?? '';
  // apply configurations may also come as CBOR while its gate is on (no CBOR form of the other patch types)
  const cborApply = !!r.cbor && contentType.split(';', 1)[0] === applyPatchCborMediaType;
  const type = cborApply ? 'apply' : patchTypeOf(contentType);
  if (!type || (type === 'strategic' && !supportsStrategicMerge(def))) {
    const supported = supportedPatchTypes(def);
    throw ApiError.unsupportedMediaType(r.cbor ? [...supported, applyPatchCborMediaType] : supported);
  }
  // kube's ValidatePatchOptions, after the patch type and before the body
  const patchErrors: FieldError[] = [];
  if (type !== 'apply' && r.query.force !== undefined)
    patchErrors.push(fieldError.forbidden('force', 'may not be specified for non-apply patch'));
  if (type === 'apply' && !r.query.fieldManager)
    patchErrors.push(fieldError.required('fieldManager', 'is required for apply patch'));
  const options = writeOptions(r, patchErrors);
  const validation = parseFieldValidation(r.query.fieldValidation);
  const body = bodyOf(r);
  if (!body || body.length === 0) throw ApiError.badRequest('the request body must not be empty for a patch');
  const warnings: string[] = [];
  let updated: UpdatedObject;
  if (type === 'apply') {
    updated = applied(
      r,
      cborApply ? checkText(decodeCbor(body), 'cbor') : decodeBody(body, 'yaml'),
      validation,
      warnings,
    );
    options.manager = undefined; // apply records ownership itself
    options.forceAllowCreate = true;
  } else {
    updated = patched(r, type, decodeBody(body, 'json'), validation, warnings);
  }
  const result = await generic.update(r.ctx, def, info.namespace, info.name, updated, options);
  addWarnings(r.reply, [...warnings, ...r.ctx.warnings]);
  return send(r.reply, result.created ? 201 : 200, result.object, r.out);
}

/** JSON, merge and strategic merge patches: the patched stored object, decoded like any request body. */
function patched(
  r: ResourceRequest,
  type: 'json' | 'merge' | 'strategic',
  patch: unknown,
  validation: FieldValidation,
  warnings: string[],
): UpdatedObject {
  const { def, info } = r;
  return (current) => {
    if (!current) throw ApiError.notFound({ group: def.group, resource: def.resource }, info.name);
    let result: unknown;
    if (type === 'json') result = applyJsonPatch(current, patch);
    else if (type === 'merge') result = applyMergePatch(current, patch);
    else result = applyStrategicMergePatch(current, patch, def.schema);
    if (!isPlainObject(result)) throw ApiError.badRequest(`the patched object must be a ${def.kind} object`);
    checkTypeUnchanged(def.kind, def.group, info.name, current, result);
    const { object, unknownFields } = decodeObject(result, def.schema, {
      kind: def.kind,
      version: info.version,
      customResource: def.untyped,
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
    warnings.splice(0, warnings.length, ...messages);
    return next;
  };
}

/**
 * A patch may drop apiVersion and kind (they are filled in again) but not change them: kube cannot decode the
 * patched object as its kind then (422).
 */
export function checkTypeUnchanged(
  kind: string,
  group: string,
  name: string,
  current: KubeObject,
  patched: Record<string, unknown>,
): void {
  const errors: FieldError[] = [];
  for (const field of ['apiVersion', 'kind'] as const) {
    const value = patched[field];
    if (value !== undefined && value !== null && value !== current[field])
      errors.push(
        fieldError.invalid(field, value, `may not be changed by a patch (the object is ${current[field]})`),
      );
  }
  if (errors.length > 0) throw ApiError.invalid(kind, group, name, errors);
}

/**
 * Server-side apply: merge the applied configuration into the live object (or create it), settling field
 * ownership; a field another manager owns with a different value is a 409 unless `force=true`.
 */
function applied(
  r: ResourceRequest,
  body: unknown,
  validation: FieldValidation,
  warnings: string[],
): UpdatedObject {
  const { def, info } = r;
  if (!isPlainObject(body))
    throw ApiError.badRequest(`the applied configuration must be a ${def.kind} object`);
  // unknown fields are reported (Warn/Strict) and dropped before the merge, as for any other body
  const decoded = decodeObject(body, def.schema, {
    kind: def.kind,
    version: info.version,
    customResource: def.untyped,
  });
  const configuration = decoded.object as Record<string, unknown>;
  const messages = validation === 'Ignore' ? [] : strictMessages(decoded.unknownFields);
  if (validation === 'Strict' && messages.length > 0) {
    throw ApiError.badRequest(`strict decoding error: ${messages.join(', ')}`);
  }
  // present: the options were checked (kube's ValidatePatchOptions)
  const manager = r.query.fieldManager ?? '';
  if (!isPlainObject(configuration))
    throw ApiError.badRequest(`the applied configuration must be a ${def.kind} object`);
  const meta = isPlainObject(configuration.metadata) ? configuration.metadata : undefined;
  if (meta?.name !== undefined && meta.name !== info.name) {
    throw ApiError.badRequest(
      `the name of the object (${String(meta.name)}) does not match the name on the URL (${info.name})`,
    );
  }
  const force = queryFlag(r.query.force);
  const apiVersion = groupVersion(def.group, info.version);
  return (live) => {
    const result = applyConfiguration(live, structuredClone(configuration), manager, def.schema, {
      force,
      apiVersion,
      kind: def.kind,
      subresource: info.subresource || undefined,
      ignoredFields: ignoredFields(def, info.subresource || undefined),
    });
    const { object } = decodeObject(result.object, def.schema, {
      kind: def.kind,
      version: info.version,
      customResource: def.untyped,
    });
    const next = object as KubeObject;
    next.apiVersion = apiVersion;
    next.kind = def.kind;
    next.metadata = { ...next.metadata, name: info.name };
    if (result.managedFields.length > 0) next.metadata.managedFields = result.managedFields;
    else delete next.metadata.managedFields;
    // a resourceVersion in the applied configuration is a precondition (the store answers 409 when stale);
    // without one, the apply writes at the revision read
    const rv = meta?.resourceVersion;
    if (typeof rv === 'string' && rv !== '') next.metadata.resourceVersion = rv;
    else if (live) next.metadata.resourceVersion = live.metadata.resourceVersion;
    else delete next.metadata.resourceVersion;
    // kube reports unknown fields of an apply only when it updates an existing object
    warnings.splice(0, warnings.length, ...(live ? messages : []));
    return next;
  };
}
