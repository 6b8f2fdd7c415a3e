/** create (POST) and update (PUT, of the object or a subresource): a decoded body through the generic store. */
import { ApiError, type KubeObject } from '../api/index.js';
import type { GenericStore, VirtualCreate } from '../registry/index.js';
import { logRequestObject } from './audit-hooks.js';
import { decodeRequestObject, parseFieldValidation } from './decode.js';
import { bodyOf, writeOptions, type ResourceRequest } from './request.js';
import { addWarnings, send } from './respond.js';

function decodedBody(r: ResourceRequest) {
  const decoded = decodeRequestObject(
    r.def,
    r.info.version,
    r.req.headers['content-type'],
    bodyOf(r),
    parseFieldValidation(r.query.fieldValidation),
    r.cbor,
  );
  logRequestObject(r, decoded.object);
  return decoded;
}

/** POST to a collection: stored by the generic store, or answered by a virtual kind's `virtual` handler. */
export async function create(
  generic: GenericStore,
  r: ResourceRequest,
  virtual?: VirtualCreate,
): Promise<unknown> {
  const { info, def } = r;
  if (info.name)
    throw ApiError.methodNotAllowed('the server does not allow this method on the requested resource');
  // kube checks the options before it reads the body
  const options = writeOptions(r);
  const { object, warnings } = decodedBody(r);
  const created = virtual
    ? await generic.createVirtual(r.ctx, def, info.namespace, object, (obj) => virtual(r.ctx, obj))
    : await generic.create(r.ctx, def, info.namespace, object, options);
  addWarnings(r.reply, [...warnings, ...r.ctx.warnings]);
  return send(r.reply, 201, created, r.out);
}

/** kube checks the body against the URL before reading anything: its namespace, then its name. */
function checkAddress(r: ResourceRequest, obj: KubeObject): void {
  const { info, def } = r;
  if (def.scope === 'Namespaced' && obj.metadata.namespace && info.namespace) {
    if (obj.metadata.namespace !== info.namespace) {
      throw ApiError.badRequest(
        'the namespace of the provided object does not match the namespace sent on the request',
      );
    }
  }
  if (obj.metadata.name !== info.name) {
    throw ApiError.badRequest(
      `the name of the object (${obj.metadata.name ?? ''}) does not match the name on the URL (${info.name})`,
    );
  }
}

/** PUT of the object or of a subresource (whose strategy decides what of the object it may change). */
export async function update(generic: GenericStore, r: ResourceRequest): Promise<unknown> {
  const { info, def } = r;
  const options = writeOptions(r);
  const { object, warnings } = decodedBody(r);
  checkAddress(r, object);
  const result = await generic.update(
    r.ctx,
    def,
    info.namespace,
    info.name,
    () => structuredClone(object),
    options,
  );
  addWarnings(r.reply, [...warnings, ...r.ctx.warnings]);
  return send(r.reply, result.created ? 201 : 200, result.object, r.out);
}
