/** delete and deletecollection: DeleteOptions from the query and the body, then the generic store. */
import { ApiError, fieldError, isPlainObject, type FieldError } from '../api/index.js';
import { decodeBody, decodeCbor, decodeDeleteOptions, negotiateInput } from '../codec/index.js';
import type { DeleteOptions, GenericStore } from '../registry/index.js';
import {
  bodyOf,
  dryRunErrors,
  invalidOptions,
  queryValues,
  selectionOf,
  type ResourceRequest,
} from './request.js';
import { addWarnings, send } from './respond.js';
import {
  authorizeUnsafeDelete,
  collectionRefusal,
  unsafeDeleteStatus,
  unsafeOptionErrors,
  type UnsafeDeletion,
} from './unsafe-delete.js';

/** DeleteOptions with kube's unsafe-delete option (set only while its gate is on) */
type RequestedDelete = DeleteOptions & { ignoreStoreReadError?: boolean };

/**
 * Reads DeleteOptions (query parameters win over the body); a dry run is recorded in the context. The unsafe
 * option is dropped unless `unsafeEnabled` (its gate), as kube drops it before validating.
 */
function deleteOptions(r: ResourceRequest, unsafeEnabled = false): RequestedDelete {
  const body = bodyOf(r);
  let fromBody: Record<string, unknown> = {};
  if (body && body.length > 0) {
    const format = negotiateInput(r.req.headers['content-type'], r.cbor);
    const decoded =
      format === 'protobuf'
        ? decodeDeleteOptions(body)
        : format === 'cbor'
          ? decodeCbor(body)
          : decodeBody(body, format);
    if (!isPlainObject(decoded)) throw ApiError.badRequest('the body must be a DeleteOptions object');
    fromBody = decoded;
  }
  // a null in the body is an unset pointer, as Go decodes it
  const pick = (name: string) => r.query[name] ?? fromBody[name] ?? undefined;
  const grace = pick('gracePeriodSeconds');
  const policy = pick('propagationPolicy');
  const orphan = orphanDependentsOf(pick('orphanDependents'));
  const ignore = unsafeEnabled
    ? boolOption('ignoreStoreReadErrorWithClusterBreakingPotential', pick)
    : undefined;
  const dryRun = queryValues(r.req.query, 'dryRun');
  const bodyDryRun = Array.isArray(fromBody.dryRun) ? fromBody.dryRun.map(String) : [];
  const dryRunValues = dryRun.length > 0 ? dryRun : bodyDryRun;
  // kube's ValidateDeleteOptions, every finding in one 422
  const errors: FieldError[] = [];
  if (orphan !== undefined && policy !== undefined) {
    errors.push(
      fieldError.invalid(
        'propagationPolicy',
        String(policy),
        'orphanDependents and deletionPropagation cannot be both set',
      ),
    );
  }
  if (policy !== undefined && !['Orphan', 'Background', 'Foreground'].includes(String(policy))) {
    errors.push(
      fieldError.notSupported('propagationPolicy', policy, ['Foreground', 'Background', 'Orphan', 'nil']),
    );
  }
  errors.push(...dryRunErrors(dryRunValues));
  const pre = isPlainObject(fromBody.preconditions) ? fromBody.preconditions : undefined;
  errors.push(
    ...unsafeOptionErrors({
      ignore,
      dryRun: dryRunValues,
      propagationPolicy: policy,
      orphanDependents: orphan,
      gracePeriodSeconds: grace,
      preconditions: pre,
    }),
  );
  if (errors.length > 0) throw invalidOptions('DeleteOptions', errors);
  r.ctx.dryRun = dryRunValues.length > 0;
  if (grace !== undefined && !Number.isSafeInteger(Number(grace))) {
    throw ApiError.badRequest(`invalid gracePeriodSeconds: ${String(grace)}`);
  }
  return {
    gracePeriodSeconds: grace === undefined ? undefined : Number(grace),
    propagationPolicy: policy === undefined ? undefined : String(policy),
    orphanDependents: orphan,
    preconditions: pre
      ? { uid: pre.uid as string | undefined, resourceVersion: pre.resourceVersion as string | undefined }
      : undefined,
    ignoreStoreReadError: ignore,
  };
}

/** Go's strconv.ParseBool, as kube reads a boolean query parameter; a body carries a JSON boolean. */
function parseBool(name: string, value: unknown): boolean | undefined {
  if (value === undefined || typeof value === 'boolean') return value;
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(String(value))) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(String(value))) return false;
  throw ApiError.badRequest(`invalid ${name}: ${String(value)}`);
}

function orphanDependentsOf(value: unknown): boolean | undefined {
  return parseBool('orphanDependents', value);
}

function boolOption(name: string, pick: (name: string) => unknown): boolean | undefined {
  return parseBool(name, pick(name));
}

/**
 * An object removed at once answers a Success Status (or itself, for kinds that return the deleted object);
 * one left Terminating answers itself: 200, or 202 when the client asked for the cascade with the legacy
 * `orphanDependents: false` (kube keeps 200 for all other callers, who expect it).
 */
export async function remove(
  generic: GenericStore,
  r: ResourceRequest,
  onTerminating: () => void,
  unsafe?: UnsafeDeletion,
): Promise<unknown> {
  const { info, def } = r;
  const options = deleteOptions(r, unsafe?.enabled);
  let result;
  if (unsafe && options.ignoreStoreReadError) {
    // kube records the attempt in the audit log, then asks for the second verb before touching the object
    r.ctx.auditAnnotations['apiserver.k8s.io/unsafe-delete-ignore-read-error'] = '';
    await authorizeUnsafeDelete(unsafe.authorizer, r);
    result = await generic.deleteCorrupt(r.ctx, def, info.namespace, info.name, options);
    if (result.unsafe) return send(r.reply, 200, unsafeDeleteStatus(r), r.out);
  } else {
    result = await generic.delete(r.ctx, def, info.namespace, info.name, options);
  }
  addWarnings(r.reply, r.ctx.warnings);
  if (!result.removed) {
    onTerminating();
    return send(r.reply, options.orphanDependents === false ? 202 : 200, result.object, r.out);
  }
  if (def.returnDeletedObject) return send(r.reply, 200, result.object, r.out);
  return send(
    r.reply,
    200,
    {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      details: {
        name: info.name,
        group: def.group || undefined,
        kind: def.resource,
        uid: result.object.metadata.uid,
      },
    },
    r.out,
  );
}

export async function removeCollection(
  generic: GenericStore,
  r: ResourceRequest,
  unsafe?: UnsafeDeletion,
): Promise<unknown> {
  const { info, def } = r;
  const options = deleteOptions(r, unsafe?.enabled);
  if (options.ignoreStoreReadError) throw collectionRefusal();
  const list = await generic.deleteCollection(
    r.ctx,
    def,
    info.namespace,
    selectionOf(r),
    options,
    info.version,
  );
  return send(r.reply, 200, list, r.out);
}
