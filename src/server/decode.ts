/** Request bodies → objects of the addressed kind: media type, syntax, kind check, schema pruning. */
import { isPlainObject, type KubeObject } from '../../modules/api/object.js';
import { ApiError } from '../../modules/api/status.js';
import { decodeBody, negotiateInput } from '../../modules/codec/index.js';
import { groupVersion, type ResourceDefinition } from '../../modules/registry/definition.js';
import { decodeObject } from '../../modules/registry/schema/decode.js';

export type FieldValidation = 'Ignore' | 'Warn' | 'Strict';

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

export function decodeRequestObject(
  def: ResourceDefinition,
  version: string,
  contentType: string | undefined,
  body: Buffer | undefined,
  validation: FieldValidation,
): Decoded {
  const format = negotiateInput(contentType);
  if (!body || body.length === 0) throw ApiError.badRequest('request body must not be empty');
  const raw = decodeBody(body, format);
  if (!isPlainObject(raw)) throw ApiError.badRequest(`the body must be a ${def.kind} object`);
  const expectedVersion = groupVersion(def.group, version);
  if (raw.apiVersion !== undefined && raw.apiVersion !== expectedVersion) {
    throw ApiError.badRequest(
      `the API version in the data (${String(raw.apiVersion)}) does not match the expected API version (${expectedVersion})`,
    );
  }
  if (raw.kind !== undefined && raw.kind !== def.kind) {
    throw ApiError.badRequest(`the kind in the data (${String(raw.kind)}) does not match the expected kind (${def.kind})`);
  }
  const { object, unknownFields } = decodeObject(raw, def.schema, { kind: def.kind });
  const decoded = object as KubeObject;
  decoded.apiVersion = expectedVersion;
  decoded.kind = def.kind;
  if (!isPlainObject(decoded.metadata)) decoded.metadata = {};
  const messages = unknownFields.map((f) => `unknown field "${f}"`);
  if (validation === 'Strict' && messages.length > 0) {
    throw ApiError.badRequest(`strict decoding error: ${messages.join(', ')}`);
  }
  return { object: decoded, warnings: validation === 'Warn' ? messages : [] };
}
