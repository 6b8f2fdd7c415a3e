// kube runs a custom resource's rules only on an object that passed its schema: a wrong type, a missing
// required field, an unsupported enum value or a length or count over its limit would make the rules' answers
// meaningless (or their cost unbounded), so it reports this one error in their place.
import { fieldError, type FieldError } from '../../api/index.js';

const blocking = new Set<FieldError['type']>([
  'NotSupported',
  'Required',
  'TooLong',
  'TooMany',
  'TypeInvalid',
]);

/**
 * The error to report instead of running the rules when the schema's errors block them, else undefined.
 * Shown as `<nil>: Invalid value: "null": some validation rules were not checked ...`, as kube shows it.
 */
export function blockingError(schemaErrors: FieldError[]): FieldError | undefined {
  if (!schemaErrors.some((e) => blocking.has(e.type))) return undefined;
  return {
    ...fieldError.invalid(
      '<nil>',
      null,
      'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
    ),
    valueText: '"null"',
  };
}
