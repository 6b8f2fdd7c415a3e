/**
 * The meta.k8s.io/v1 messages every group uses on the wire, described as schemas so the same generic codec
 * handles them: DeleteOptions (request bodies of DELETE), Status (error and delete responses), ListMeta and
 * the `<Kind>List` shape {1: metadata, 2: items}. Field numbers are those of kube's meta/v1 generated.proto.
 */
import { isListBody } from '../../api/index.js';
import type { Status } from '../../api/index.js';
import type { Schema } from '../../api/index.js';
import { decodeProtobufObject } from './decode.js';
import { encodeProtobufObject } from './encode.js';
import { unwrap, wrap } from './envelope.js';
import { pointerMarker } from './shape.js';
import { objectMetaSchema } from '../../api/index.js';

const at = (n: number, schema: Schema): Schema => ({ ...schema, 'x-pgkube-protobuf': n });
/** a Go pointer field: written only when set, its zero value kept */
const ptr = (schema: Schema): Schema => ({ ...schema, [pointerMarker]: true }) as Schema;
const str = (n: number): Schema => at(n, { type: 'string' });
const int32 = (n: number): Schema => at(n, { type: 'integer', format: 'int32' });
const int64 = (n: number): Schema => at(n, { type: 'integer', format: 'int64' });
const bool = (n: number): Schema => at(n, { type: 'boolean' });
const typeMeta = { apiVersion: { type: 'string' }, kind: { type: 'string' } } satisfies Record<
  string,
  Schema
>;

export const preconditionsSchema: Schema = {
  type: 'object',
  properties: { uid: ptr(str(1)), resourceVersion: ptr(str(2)) },
};

export const deleteOptionsSchema: Schema = {
  type: 'object',
  properties: {
    ...typeMeta,
    gracePeriodSeconds: ptr(int64(1)),
    preconditions: ptr(at(2, preconditionsSchema)),
    orphanDependents: ptr(bool(3)),
    propagationPolicy: ptr(str(4)),
    dryRun: at(5, { type: 'array', items: { type: 'string' } }),
    ignoreStoreReadErrorWithClusterBreakingPotential: ptr(bool(6)),
  },
};

export const listMetaSchema: Schema = {
  type: 'object',
  properties: {
    selfLink: str(1),
    resourceVersion: str(2),
    continue: str(3),
    remainingItemCount: ptr(int64(4)),
  },
};

const statusCauseSchema: Schema = {
  type: 'object',
  properties: { reason: str(1), message: str(2), field: str(3) },
};

const statusDetailsSchema: Schema = {
  type: 'object',
  properties: {
    name: str(1),
    group: str(2),
    kind: str(3),
    causes: at(4, { type: 'array', items: statusCauseSchema }),
    retryAfterSeconds: int32(5),
    uid: str(6),
  },
};

export const statusSchema: Schema = {
  type: 'object',
  properties: {
    ...typeMeta,
    metadata: at(1, listMetaSchema),
    status: str(2),
    message: str(3),
    reason: str(4),
    details: ptr(at(5, statusDetailsSchema)),
    code: int32(6),
  },
};

/** The schema of `<Kind>List` for a kind's schema: {1: ListMeta, 2: repeated items}. */
export function listSchema(itemSchema: Schema): Schema {
  return {
    type: 'object',
    properties: {
      ...typeMeta,
      metadata: at(1, listMetaSchema),
      items: at(2, { type: 'array', items: itemSchema }),
    },
  };
}

/** PartialObjectMetadata (meta.k8s.io v1 and v1beta1): {1: ObjectMeta}, for any kind, CRDs included. */
export const partialObjectMetadataSchema: Schema = {
  type: 'object',
  properties: { ...typeMeta, metadata: at(1, objectMetaSchema) },
};

const partialObjectMetadataListV1 = listSchema(partialObjectMetadataSchema);

/** v1beta1 got its ListMeta late (1.15), after items had taken field 1: {1: items, 2: ListMeta}. */
const partialObjectMetadataListV1beta1: Schema = {
  type: 'object',
  properties: {
    ...typeMeta,
    metadata: at(2, listMetaSchema),
    items: at(1, { type: 'array', items: partialObjectMetadataSchema }),
  },
};

/**
 * The schema a response body is written with, given the schema of one object of the response: Status, the
 * `<Kind>List` around it, PartialObjectMetadataList (whose field numbers differ between v1 and v1beta1), or
 * the object itself.
 */
export function responseSchema(body: Record<string, unknown>, objectSchema: Schema): Schema {
  if (body.kind === 'Status') return statusSchema;
  if (body.kind === 'PartialObjectMetadataList') {
    return body.apiVersion === 'meta.k8s.io/v1beta1'
      ? partialObjectMetadataListV1beta1
      : partialObjectMetadataListV1;
  }
  const list = isListBody(body);
  return list ? listSchemaOf(objectSchema) : objectSchema;
}

/** one list schema per object schema, so its shape is worked out once */
const lists = new WeakMap<Schema, Schema>();
function listSchemaOf(objectSchema: Schema): Schema {
  let list = lists.get(objectSchema);
  if (!list) {
    list = listSchema(objectSchema);
    lists.set(objectSchema, list);
  }
  return list;
}

/** A whole protobuf body (envelope included) → the object's JSON form, kind and apiVersion included. */
export function decodeProtobuf(body: Uint8Array, schema: Schema): Record<string, unknown> {
  const envelope = unwrap(body);
  return decodeProtobufObject(envelope.raw, schema, envelope);
}

/** The object's JSON form → a whole protobuf body, typed by the object's own kind and apiVersion. */
export function encodeProtobuf(obj: Record<string, unknown>, schema: Schema): Uint8Array {
  const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  const kind = typeof obj.kind === 'string' ? obj.kind : '';
  return wrap({ apiVersion, kind, raw: encodeProtobufObject(obj, schema) });
}

/** A DELETE body. kube reads the body's own apiVersion (`v1`, `meta.k8s.io/v1`, a group's version). */
export function decodeDeleteOptions(body: Uint8Array): Record<string, unknown> {
  return decodeProtobuf(body, deleteOptionsSchema);
}

export function encodeStatus(status: Status): Uint8Array {
  return encodeProtobuf(status as unknown as Record<string, unknown>, statusSchema);
}
