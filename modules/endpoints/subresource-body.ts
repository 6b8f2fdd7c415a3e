/** The body of a create-only subresource whose kind is its own (pods/binding's Binding, pods/eviction's Eviction). */
import { ApiError, type KubeObject } from '../api/index.js';
import { logRequestObject } from './audit-hooks.js';
import { decodeRequestObject, parseFieldValidation } from './decode.js';
import { bodyOf, type ResourceRequest } from './request.js';
import { send } from './respond.js';

export interface SubresourceBody {
  object: KubeObject;
  warnings: string[];
}

/** Decodes the body as `group`/v1 `kind`, with the schema the definition gives the subresource. */
export function subresourceBody(r: ResourceRequest, group: string, kind: string): SubresourceBody {
  const schema = r.def.subresourceSchemas?.[r.info.subresource];
  if (!schema) throw ApiError.pathNotFound();
  const decoded = decodeRequestObject(
    { group, kind, schema },
    'v1',
    r.req.headers['content-type'],
    bodyOf(r),
    parseFieldValidation(r.query.fieldValidation),
    r.cbor,
  );
  logRequestObject(r, decoded.object);
  return decoded;
}

/** kube answers these creates with a bare Success Status, 201. */
export function sendCreatedStatus(r: ResourceRequest): unknown {
  return send(
    r.reply,
    201,
    { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 },
    r.out,
  );
}
