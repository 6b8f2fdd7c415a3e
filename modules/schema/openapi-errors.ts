/**
 * The errors of kube's OpenAPI value validation (k8s.io/kube-openapi validate/errors) and how kube turns
 * them into field errors (apiextensions' kubeOpenAPIResultToFieldErrors). A message names the value's path
 * relative to the validated root, `spec.replicas in body must be of type integer: "string"`, and the field
 * error's path is that name under the caller's prefix; errors of the combinators (anyOf, oneOf, allOf, not)
 * are reported at the prefix itself, which is `<nil>` for a whole custom resource, as kube prints a nil path.
 */
import { fieldError, goQuote, type FieldError } from '../api/index.js';
import { errorValueText, goJSON } from './go-values.js';

export enum Code {
  InvalidType,
  Required,
  TooLong,
  TooShort,
  Pattern,
  Enum,
  MultipleOf,
  Maximum,
  Minimum,
  Unique,
  MaxItems,
  MinItems,
  TooFewProperties,
  TooManyProperties,
  Unallowed,
  /** anyOf / oneOf / allOf / not: not tied to a value path */
  Composite,
}

export interface OpenAPIError {
  code: Code;
  /** the value's path as kube-openapi writes it: `spec.items[0].name`, `.x` for a required root field */
  name: string;
  message: string;
  /** the offending value (Go's err.Value): undefined where kube has none */
  value?: unknown;
  /** the limit for TooLong / MaxItems / TooManyProperties */
  limit?: number;
  /** the allowed values of an enum */
  values?: unknown[];
}

const inBody = ' in body';

export const openAPIError = {
  invalidType: (name: string, typeName: string, actual: string): OpenAPIError => ({
    code: Code.InvalidType,
    name,
    message: `${name}${inBody} must be of type ${typeName}: ${goQuote(actual)}`,
    value: actual,
  }),
  required: (name: string): OpenAPIError => ({
    code: Code.Required,
    name,
    message: `${name}${inBody} is required`,
  }),
  tooLong: (name: string, max: number, value: string): OpenAPIError => ({
    code: Code.TooLong,
    name,
    message: `${name}${inBody} should be at most ${max} chars long`,
    value,
    limit: max,
  }),
  tooShort: (name: string, min: number, value: string): OpenAPIError => ({
    code: Code.TooShort,
    name,
    message: `${name}${inBody} should be at least ${min} chars long`,
    value,
  }),
  pattern: (name: string, pattern: string, value: string): OpenAPIError => ({
    code: Code.Pattern,
    name,
    message: `${name}${inBody} should match '${pattern}'`,
    value,
  }),
  enum: (name: string, value: unknown, values: unknown[], valuesText: string): OpenAPIError => ({
    code: Code.Enum,
    name,
    message: `${name}${inBody} should be one of ${valuesText}`,
    value,
    values,
  }),
  multipleOf: (name: string, factor: string, value: number): OpenAPIError => ({
    code: Code.MultipleOf,
    name,
    message: `${name}${inBody} should be a multiple of ${factor}`,
    value,
  }),
  multipleOfNotPositive: (name: string, factor: string): OpenAPIError => ({
    code: Code.MultipleOf,
    name,
    message: `factor MultipleOf declared for ${name} must be positive: ${factor}`,
    value: Number(factor),
  }),
  maximum: (name: string, max: string, exclusive: boolean, value: number): OpenAPIError => ({
    code: Code.Maximum,
    name,
    message: `${name}${inBody} should be less than ${exclusive ? '' : 'or equal to '}${max}`,
    value,
  }),
  minimum: (name: string, min: string, exclusive: boolean, value: number): OpenAPIError => ({
    code: Code.Minimum,
    name,
    message: `${name}${inBody} should be greater than ${exclusive ? '' : 'or equal to '}${min}`,
    value,
  }),
  unique: (name: string): OpenAPIError => ({
    code: Code.Unique,
    name,
    message: `${name}${inBody} shouldn't contain duplicates`,
  }),
  maxItems: (name: string, max: number, size: number): OpenAPIError => ({
    code: Code.MaxItems,
    name,
    message: `${name}${inBody} should have at most ${max} items`,
    value: size,
    limit: max,
  }),
  minItems: (name: string, min: number, size: number): OpenAPIError => ({
    code: Code.MinItems,
    name,
    message: `${name}${inBody} should have at least ${min} items`,
    value: size,
  }),
  tooFewProperties: (name: string, min: number, size: number): OpenAPIError => ({
    code: Code.TooFewProperties,
    name,
    message: `${name}${inBody} should have at least ${min} properties`,
    value: size,
  }),
  tooManyProperties: (name: string, max: number, size: number): OpenAPIError => ({
    code: Code.TooManyProperties,
    name,
    message: `${name}${inBody} should have at most ${max} properties`,
    value: size,
    limit: max,
  }),
  unallowed: (name: string, key: string): OpenAPIError => ({
    code: Code.Unallowed,
    name,
    message: `${name}.${key}${inBody} is a forbidden property`,
    value: key,
  }),
  composite: (message: string): OpenAPIError => ({ code: Code.Composite, name: '', message }),
};

/** `path` + kube-openapi's name, as field.Path.Child joins them; the prefix alone for an empty name. */
function fieldPath(prefix: string | undefined, name: string): string {
  const own = name.startsWith('.') ? name.slice(1) : name;
  if (own === '' || name === '.') return prefix ?? '<nil>';
  return prefix === undefined ? own : `${prefix}.${own}`;
}

function withValue(e: FieldError, value: unknown): FieldError {
  e.value = value;
  e.valueText = errorValueText(value);
  return e;
}

/** One kube-openapi error as kube reports it in a 422. */
export function toFieldError(err: OpenAPIError, prefix: string | undefined): FieldError {
  if (err.code === Code.Composite)
    return withValue(fieldError.invalid(prefix ?? '<nil>', '', err.message), '');
  const field = fieldPath(prefix, err.name);
  const value = err.value ?? '';
  switch (err.code) {
    case Code.Required:
      return fieldError.required(field);
    case Code.Enum: {
      // kube lists the allowed values quoted, non-strings as their JSON
      const allowed = (err.values ?? []).map((v) => goQuote(typeof v === 'string' ? v : goJSON(v)));
      const e: FieldError = {
        type: 'NotSupported',
        field,
        detail: `supported values: ${allowed.join(', ')}`,
      };
      if (allowed.length === 0) delete e.detail;
      return withValue(e, err.value ?? null);
    }
    case Code.TooLong:
      return fieldError.tooLong(field, err.limit ?? -1);
    case Code.MaxItems:
    case Code.TooManyProperties:
      return fieldError.tooMany(field, Number(err.value), err.limit ?? -1);
    case Code.InvalidType:
      return withValue(fieldError.typeInvalid(field, value, err.message), value);
  }
  return withValue(fieldError.invalid(field, value, err.message), value);
}

/** The errors in kube's order with repeats dropped (kube-openapi keeps one error per message). */
export function toFieldErrors(errs: OpenAPIError[], prefix: string | undefined): FieldError[] {
  const out: FieldError[] = [];
  if (errs.length === 0) return out;
  const seen = new Set<string>();
  for (const e of errs) {
    if (seen.has(e.message)) continue;
    seen.add(e.message);
    out.push(toFieldError(e, prefix));
  }
  return out;
}
