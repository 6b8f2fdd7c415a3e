/** Request bodies → objects of the addressed kind: media type, syntax, kind check, schema pruning. */
import { isPlainObject, type KubeObject } from '../../modules/api/object.js';
import { ApiError } from '../../modules/api/status.js';
import { decodeBody, negotiateInput } from '../../modules/codec/index.js';
import { decodeProtobuf } from '../../modules/codec/protobuf/index.js';
import { groupVersion, type ResourceDefinition } from '../../modules/registry/definition.js';
import {
  decodeObject,
  findDuplicateFields,
  findYamlDuplicateKeys,
  strictDecodingError,
  strictMessages,
  yamlDuplicateMessage,
} from '../../modules/registry/schema/index.js';

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

/** Syntax only: JSON, YAML or Protobuf bytes → a plain value (Protobuf read with the kind's field numbers). */
function parseBody(
  def: ResourceDefinition,
  contentType: string | undefined,
  body: Buffer,
): { raw: unknown; text?: string } {
  const format = negotiateInput(contentType);
  if (format === 'protobuf') return { raw: decodeProtobuf(body, def.schema) };
  const text = body.toString('utf8');
  if (format === 'yaml') {
    const duplicates = findYamlDuplicateKeys(text);
    if (duplicates.length > 0) throw ApiError.badRequest(yamlDuplicateMessage(duplicates));
    return { raw: decodeBody(text, format) };
  }
  return { raw: decodeBody(text, format), text };
}

export function decodeRequestObject(
  def: ResourceDefinition,
  version: string,
  contentType: string | undefined,
  body: Buffer | undefined,
  validation: FieldValidation,
): Decoded {
  if (!body || body.length === 0) throw ApiError.badRequest('request body must not be empty');
  const { raw, text } = parseBody(def, contentType, body);
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
  const { object, unknownFields } = decodeObject(raw, def.schema, { kind: def.kind, version });
  const decoded = object as KubeObject;
  decoded.apiVersion = expectedVersion;
  decoded.kind = def.kind;
  if (!isPlainObject(decoded.metadata)) decoded.metadata = {};
  if (validation === 'Ignore') return { object: decoded, warnings: [] };
  const messages = strictMessages(unknownFields, text ? findDuplicateFields(text) : []);
  if (validation === 'Strict' && messages.length > 0) throw strictDecodingError(messages, def.kind, version);
  return { object: decoded, warnings: messages };
}
