/**
 * The schema part of kube's validation of a custom resource (its strategy's Validate and ValidateUpdate),
 * in kube's order: the values against the schema (ratcheted on update), the embedded resources, then the
 * list-type uniqueness (on update only when the old object passes it). The caller adds the generic object
 * metadata validation before these and the CEL rules after them, unless `blockingError` says CEL must not
 * run. The status subresource validates `status` alone against the status schema, without ratcheting.
 *
 * A custom resource's way through, as kube takes it (`schema` is the version's openAPIV3Schema):
 * - decode: `decodeObject(body, schema, { kind, version, customResource: true })`: pruning, unknown field
 *   paths for fieldValidation, metadata decoded as an ObjectMeta (400 on a wrong type);
 * - default: `applyDefaults(schema, obj)` after decoding, and on every read of a stored object (objects
 *   stored before a default was added get it), skipped when `hasDefaults(schema)` is false;
 * - validate: generic metadata rules, then `validateCustomResource(schema, obj)` on create or
 *   `validateCustomResource(schema, obj, { old })` on update (share `correlate(obj, old, schema)` with the
 *   CEL transition rules through `correlation`), then CEL unless `blockingError(errs)` returns the error to add.
 */
import { isPlainObject, type FieldError, type Schema } from '../api/index.js';
import type { Correlation } from './correlate.js';
import { validateEmbeddedResources } from './embedded.js';
import { validateListTypes, validateListTypesUpdate } from './list-types.js';
import { validateValues } from './validate-values.js';

export interface CustomResourceValidation {
  /** On update: the old object (ratcheting, and the list-type rule above). */
  old?: unknown;
  /** On update: a correlation of the new and old objects to share with CEL (see correlate.ts). */
  correlation?: Correlation;
}

/** The schema, embedded-resource and list-type errors of a custom resource (create, or update with `old`). */
export function validateCustomResource(
  schema: Schema,
  obj: unknown,
  options: CustomResourceValidation = {},
): FieldError[] {
  const update = options.old !== undefined || options.correlation !== undefined;
  const old = options.old ?? options.correlation?.oldValue;
  const errs = validateValues(schema, obj, { old, correlation: options.correlation });
  const embedded = validateEmbeddedResources(schema, obj);
  const lists = update ? validateListTypesUpdate(schema, obj, old) : validateListTypes(schema, obj);
  if (embedded.length === 0 && lists.length === 0) return errs;
  return errs.concat(embedded, lists);
}

/**
 * The status subresource's check (update only): `status` against the status schema, reported under
 * `status` and not ratcheted (kube v1.32 ratchets only the main resource), then the list types of the whole
 * object when the old object's pass.
 */
export function validateCustomResourceStatus(schema: Schema, obj: unknown, old: unknown): FieldError[] {
  const statusSchema = schema.properties?.status;
  let errs: FieldError[] = [];
  if (statusSchema && isPlainObject(obj) && Object.prototype.hasOwnProperty.call(obj, 'status'))
    errs = validateValues(statusSchema, obj.status, { path: 'status' });
  const lists = validateListTypesUpdate(schema, obj, old);
  return lists.length === 0 ? errs : errs.concat(lists);
}

const blockingTypes = new Set<FieldError['type']>([
  'NotSupported',
  'Required',
  'TooLong',
  'TooMany',
  'TypeInvalid',
]);

/**
 * kube skips the CEL rules of an object that already has an error of these types (a wrong type, a missing
 * field, a value out of an enum, too long or too many) and reports this instead.
 */
export function blockingError(errs: FieldError[]): FieldError | undefined {
  if (!errs.some((e) => blockingTypes.has(e.type))) return undefined;
  return {
    type: 'Invalid',
    field: '<nil>',
    value: null,
    valueText: '"null"',
    detail:
      'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
  };
}
