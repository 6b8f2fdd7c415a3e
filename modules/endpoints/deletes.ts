/** delete and deletecollection: DeleteOptions from the query and the body, then the generic store. */
import { ApiError, isPlainObject } from '../api/index.js';
import { decodeBody, decodeCbor, decodeDeleteOptions, negotiateInput } from '../codec/index.js';
import type { DeleteOptions, GenericStore } from '../registry/index.js';
import {
  bodyOf,
  invalidOptions,
  parseDryRun,
  queryValues,
  selectionOf,
  type ResourceRequest,
} from './request.js';
import { addWarnings, send } from './respond.js';

/** Reads DeleteOptions (query parameters win over the body); a dry run is recorded in the context. */
function deleteOptions(r: ResourceRequest): DeleteOptions {
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
  const pick = (name: string) => r.query[name] ?? fromBody[name];
  const grace = pick('gracePeriodSeconds');
  const policy = pick('propagationPolicy');
  if (policy !== undefined && !['Orphan', 'Background', 'Foreground'].includes(String(policy))) {
    throw invalidOptions('DeleteOptions', [
      {
        type: 'NotSupported',
        field: 'propagationPolicy',
        value: policy,
        detail: 'supported values: "Foreground", "Background", "Orphan", "nil"',
      },
    ]);
  }
  const dryRun = queryValues(r.req.query, 'dryRun');
  const bodyDryRun = Array.isArray(fromBody.dryRun) ? fromBody.dryRun.map(String) : [];
  r.ctx.dryRun = parseDryRun(dryRun.length > 0 ? dryRun : bodyDryRun, 'DeleteOptions');
  const pre = isPlainObject(fromBody.preconditions) ? fromBody.preconditions : undefined;
  if (grace !== undefined && !Number.isInteger(Number(grace))) {
    throw ApiError.badRequest(`invalid gracePeriodSeconds: ${String(grace)}`);
  }
  return {
    gracePeriodSeconds: grace === undefined ? undefined : Number(grace),
    propagationPolicy: policy === undefined ? undefined : String(policy),
    preconditions: pre
      ? { uid: pre.uid as string | undefined, resourceVersion: pre.resourceVersion as string | undefined }
      : undefined,
  };
}

/** An object removed at once answers a Success Status; one left Terminating answers itself. */
export async function remove(
  generic: GenericStore,
  r: ResourceRequest,
  onTerminating: () => void,
): Promise<unknown> {
  const { info, def } = r;
  const result = await generic.delete(r.ctx, def, info.namespace, info.name, deleteOptions(r));
  addWarnings(r.reply, r.ctx.warnings);
  if (!result.removed) {
    onTerminating();
    return send(r.reply, 200, result.object, r.out);
  }
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

export async function removeCollection(generic: GenericStore, r: ResourceRequest): Promise<unknown> {
  const { info, def } = r;
  const options = deleteOptions(r);
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
