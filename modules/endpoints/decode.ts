/** Request bodies → objects of the addressed kind: media type, syntax, kind check, schema pruning. */
import { isPlainObject, type KubeObject, type Schema } from '../api/index.js';
import { ApiError } from '../api/index.js';
import { decodeCbor } from '../codec/index.js';
import { checkText, checkYamlDepth, decodeBody, negotiateInput } from '../codec/index.js';
import {
  decodeProtobufObject,
  hasProtobufPrefix,
  protobufPrefix,
  unwrap,
  type Envelope,
} from '../codec/index.js';
import { groupVersion, type ResourceDefinition } from '../registry/index.js';
import {
  decodeObject,
  findDuplicateFields,
  findYamlDuplicateKeys,
  strictDecodingError,
  strictMessages,
  yamlDuplicateMessage,
} from '../schema/index.js';

export type FieldValidation = 'Ignore' | 'Warn' | 'Strict';

/** What decoding needs of a kind: a resource's, or a subresource's own body kind (TokenRequest). */
export type BodyKind = Pick<ResourceDefinition, 'group' | 'kind' | 'schema' | 'untyped'>;

export interface Decoded {
  object: KubeObject;
  /** `Warning` header values for fieldValidation=Warn */
  warnings: string[];
}

export function parseFieldValidation(value: string | undefined): FieldValidation {
  if (value === undefined || value === '') return 'Warn';
  if (value === 'Ignore' || value === 'Warn' || value === 'Strict') return value;
  throw ApiError.badRequest(`fieldValidation must be one of "Ignore", "Warn", or "Strict", got "${value}"`);
}

const protobufForms = new WeakMap<Schema, boolean>();

/** Kinds whose schema carries protobuf field numbers (the built-in kinds; CRDs have none). */
export function hasProtobufForm(def: Pick<BodyKind, 'schema'>): boolean {
  let has = protobufForms.get(def.schema);
  if (has === undefined) {
    has = Object.values(def.schema.properties ?? {}).some((p) => p['x-pgkube-protobuf'] !== undefined);
    protobufForms.set(def.schema, has);
  }
  return has;
}

/** kube quotes the start of a body it cannot read: as text when it looks like JSON, otherwise as hex. */
function summarize(body: Buffer, max = 30): string {
  const head = body.subarray(0, max);
  const text = body[0] === 0x7b ? head.toString('utf8') : head.toString('hex');
  return body.length > max ? `${text} ...` : text;
}

/**
 * A Protobuf body read with the kind's field numbers. Errors carry what kube's handler adds: a body it cannot
 * unwrap is "unrecognized" (with its first bytes), one whose object does not decode names the envelope's type.
 */
function parseProtobuf(def: BodyKind, version: string, body: Buffer): unknown {
  let envelope: Envelope;
  try {
    if (body.length === protobufPrefix.length && hasProtobufPrefix(body))
      throw ApiError.badRequest('empty body');
    envelope = unwrap(body);
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    throw ApiError.badRequest(
      `the object provided is unrecognized (must be of type ${def.kind}): ${e.message} (${summarize(body)})`,
    );
  }
  try {
    return decodeProtobufObject(envelope.raw, def.schema, envelope);
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    const kind = envelope.kind || def.kind;
    const inVersion = envelope.apiVersion
      ? envelope.apiVersion.slice(envelope.apiVersion.indexOf('/') + 1)
      : version;
    throw ApiError.badRequest(
      `${kind} in version "${inVersion}" cannot be handled as a ${def.kind}: ${e.message}`,
    );
  }
}

/** Syntax only: JSON, YAML, Protobuf or CBOR bytes → a plain value. */
function parseBody(
  def: BodyKind,
  version: string,
  contentType: string | undefined,
  body: Buffer,
  cbor: boolean,
): { raw: unknown; text?: string } {
  const format = negotiateInput(contentType, cbor, hasProtobufForm(def));
  // binary forms carry any string as it is: NULs are refused there too
  if (format === 'protobuf') return { raw: checkText(parseProtobuf(def, version, body)) };
  // CBOR's decoder refuses duplicate keys itself, as kube's does
  if (format === 'cbor') return { raw: checkText(decodeCbor(body, def.schema), 'cbor') };
  const text = body.toString('utf8');
  if (format === 'yaml') {
    checkYamlDepth(text);
    const duplicates = findYamlDuplicateKeys(text);
    if (duplicates.length > 0) throw ApiError.badRequest(yamlDuplicateMessage(duplicates));
    return { raw: decodeBody(text, format) };
  }
  return { raw: decodeBody(text, format), text };
}

export function decodeRequestObject(
  def: BodyKind,
  version: string,
  contentType: string | undefined,
  body: Buffer | undefined,
  validation: FieldValidation,
  cbor = false,
): Decoded {
  if (!body || body.length === 0) throw ApiError.badRequest('request body must not be empty');
  const { raw, text } = parseBody(def, version, contentType, body, cbor);
  if (!isPlainObject(raw)) throw ApiError.badRequest(`the body must be a ${def.kind} object`);
  const expectedVersion = groupVersion(def.group, version);
  if (raw.apiVersion !== undefined && raw.apiVersion !== expectedVersion) {
    throw ApiError.badRequest(
      `the API version in the data (${String(raw.apiVersion)}) does not match the expected API version (${expectedVersion})`,
    );
  }
  if (raw.kind !== undefined && raw.kind !== def.kind) {
    throw ApiError.badRequest(
      `the kind in the data (${String(raw.kind)}) does not match the expected kind (${def.kind})`,
    );
  }
  const { object, unknownFields } = decodeObject(raw, def.schema, {
    kind: def.kind,
    version,
    customResource: def.untyped,
  });
  const decoded = object as KubeObject;
  decoded.apiVersion = expectedVersion;
  decoded.kind = def.kind;
  if (!isPlainObject(decoded.metadata)) decoded.metadata = {};
  if (validation === 'Ignore') return { object: decoded, warnings: [] };
  const messages = strictMessages(unknownFields, text ? findDuplicateFields(text) : []);
  if (validation === 'Strict' && messages.length > 0) throw strictDecodingError(messages, def.kind, version);
  return { object: decoded, warnings: messages };
}
