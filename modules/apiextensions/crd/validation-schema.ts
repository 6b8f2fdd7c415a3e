/**
 * One schema of a CRD (top-level or a version's), as kube's validateCustomResourceDefinitionValidation
 * judges it: the root's restrictions, the structural rules, the defaults, the walk over every node, and
 * then the CEL rules (given by the caller), once the schema itself is sound.
 */
import { fieldError, type FieldError, type Schema } from '../../api/index.js';
import { validateDefaults, type ValidateDefault } from './default-values.js';
import { validateOpenAPISchema, type SchemaRules } from './openapi-schema.js';
import { child, isRaw, raw, type Raw } from './schema-walk.js';
import { structuralBuildError, validateStructural } from './structural.js';

/** What the caller plugs in: the checks that need the values module and CEL. */
export interface PluggedChecks {
  /** judges a `default` against its schema (types, formats, enum, CEL), at `path` (ending in `.default`) */
  validateDefault?: ValidateDefault;
  /** compiles the schema's x-kubernetes-validations; `path` is the schema's own (…openAPIV3Schema) */
  validateRules?: (schema: Schema, path: string) => FieldError[];
}

export interface SchemaOptions extends SchemaRules, PluggedChecks {
  allowDefaults: boolean;
  requireStructuralSchema: boolean;
  requirePrunedDefaults: boolean;
}

/** The JSONSchemaProps fields, in kube's Go order, that may be set at the root when /status is enabled. */
const rootFieldOrder: [string, string][] = [
  ['id', 'ID'],
  ['$schema', 'Schema'],
  ['$ref', 'Ref'],
  ['description', 'Description'],
  ['type', 'Type'],
  ['nullable', 'Nullable'],
  ['format', 'Format'],
  ['title', 'Title'],
  ['default', 'Default'],
  ['maximum', 'Maximum'],
  ['exclusiveMaximum', 'ExclusiveMaximum'],
  ['minimum', 'Minimum'],
  ['exclusiveMinimum', 'ExclusiveMinimum'],
  ['maxLength', 'MaxLength'],
  ['minLength', 'MinLength'],
  ['pattern', 'Pattern'],
  ['maxItems', 'MaxItems'],
  ['minItems', 'MinItems'],
  ['uniqueItems', 'UniqueItems'],
  ['multipleOf', 'MultipleOf'],
  ['enum', 'Enum'],
  ['maxProperties', 'MaxProperties'],
  ['minProperties', 'MinProperties'],
  ['required', 'Required'],
  ['items', 'Items'],
  ['allOf', 'AllOf'],
  ['oneOf', 'OneOf'],
  ['anyOf', 'AnyOf'],
  ['not', 'Not'],
  ['properties', 'Properties'],
  ['additionalProperties', 'AdditionalProperties'],
  ['patternProperties', 'PatternProperties'],
  ['dependencies', 'Dependencies'],
  ['additionalItems', 'AdditionalItems'],
  ['definitions', 'Definitions'],
  ['externalDocs', 'ExternalDocs'],
  ['example', 'Example'],
  ['x-kubernetes-preserve-unknown-fields', 'XPreserveUnknownFields'],
  ['x-kubernetes-embedded-resource', 'XEmbeddedResource'],
  ['x-kubernetes-int-or-string', 'XIntOrString'],
  ['x-kubernetes-list-map-keys', 'XListMapKeys'],
  ['x-kubernetes-list-type', 'XListType'],
  ['x-kubernetes-map-type', 'XMapType'],
  ['x-kubernetes-validations', 'XValidations'],
];

// status is cut out as properties[status] with the status subresource, so the root may only hold what
// still means the same for that part
const allowedAtRoot = [
  'Description',
  'Type',
  'Format',
  'Title',
  'Maximum',
  'ExclusiveMaximum',
  'Minimum',
  'ExclusiveMinimum',
  'MaxLength',
  'MinLength',
  'Pattern',
  'MaxItems',
  'MinItems',
  'UniqueItems',
  'MultipleOf',
  'Required',
  'Items',
  'Properties',
  'ExternalDocs',
  'Example',
  'XPreserveUnknownFields',
  'XValidations',
];

/** Go pointer fields of JSONSchemaProps: set as soon as present, even at their zero value. */
const pointerFields = new Set([
  '$ref',
  'default',
  'maximum',
  'minimum',
  'maxLength',
  'minLength',
  'maxItems',
  'minItems',
  'multipleOf',
  'maxProperties',
  'minProperties',
  'items',
  'not',
  'additionalProperties',
  'additionalItems',
  'externalDocs',
  'example',
  'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-list-type',
  'x-kubernetes-map-type',
]);

const isGoZero = (v: unknown): boolean =>
  v === undefined ||
  v === null ||
  v === false ||
  v === '' ||
  v === 0 ||
  (Array.isArray(v) && v.length === 0) ||
  (isRaw(v) && Object.keys(v).length === 0);

function rootWithStatus(s: Raw, path: string): FieldError[] {
  for (const [json, goName] of rootFieldOrder) {
    const v = s[json];
    if (pointerFields.has(json) ? v === undefined || v === null : isGoZero(v)) continue;
    if (goName === 'Type') {
      if (s.type !== 'object')
        return [
          fieldError.invalid(
            child(path, 'openAPIV3Schema.type'),
            s.type,
            'only "object" is allowed as the type at the root of the schema if the status subresource is enabled',
          ),
        ];
      continue;
    }
    if (!allowedAtRoot.includes(goName))
      return [
        fieldError.invalid(
          child(path, 'openAPIV3Schema'),
          s,
          `only [${allowedAtRoot.join(' ')}] fields are allowed at the root of the schema if the status subresource is enabled`,
        ),
      ];
  }
  return [];
}

/** `path` is where the CustomResourceValidation sits: `spec.validation` or `spec.versions[i].schema`. */
export function validateCRDSchema(
  validation: { openAPIV3Schema?: Schema } | undefined,
  statusEnabled: boolean,
  opts: SchemaOptions,
  path: string,
): FieldError[] {
  const schema = validation?.openAPIV3Schema;
  if (!schema) return [];
  const s = raw(schema);
  const at = child(path, 'openAPIV3Schema');
  const errs: FieldError[] = [];
  if (statusEnabled) errs.push(...rootWithStatus(s, path));
  if (s.nullable === true)
    errs.push(
      fieldError.forbidden(child(path, 'openAPIV3Schema.nullable'), 'nullable cannot be true at the root'),
    );

  let sound = false;
  let buildErrs: FieldError[] = [];
  if (opts.requireStructuralSchema) {
    const buildError = structuralBuildError(s);
    if (buildError) buildErrs = [fieldError.invalid(at, '', buildError)];
    else {
      const structural = validateStructural(s, at);
      if (structural.length > 0) errs.push(...structural);
      else {
        const defaults = validateDefaults(s, at, opts);
        if (defaults.length > 0) errs.push(...defaults);
        else sound = true;
      }
    }
  }
  const walkErrs = validateOpenAPISchema(
    s,
    at,
    { allowDefaults: opts.allowDefaults, insideResourceMeta: false },
    true,
    opts,
  );
  errs.push(...walkErrs);
  // kube shows why it could not build the structural form only when nothing else explains it
  if (errs.length === 0) errs.push(...buildErrs);
  if (sound && walkErrs.length === 0 && opts.validateRules) errs.push(...opts.validateRules(schema, at));
  return errs;
}
