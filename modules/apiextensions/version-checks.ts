/**
 * What one CRD version's schema asks of its objects on every write, in kube's order: defaults, then the
 * schema's validation (types, formats, embedded resources, list types; ratcheted on update through one
 * old/new correlation), then the CEL rules unless an error already blocks them.
 */
import type { FieldError, KubeObject, Schema } from '../api/index.js';
import {
  applyDefaults,
  blockingError,
  correlate,
  hasDefaults,
  validateCustomResource,
  validateCustomResourceStatus,
} from '../schema/index.js';
import { compileValidator } from './cel/index.js';
import type { CRDVersion } from './crd/index.js';

export interface VersionChecks {
  defaults(obj: KubeObject): void;
  /** a create (no `old`) or an update of the main resource; ratcheted rule failures go to `warnings` */
  validate(obj: KubeObject, old: KubeObject | undefined, warnings: string[]): FieldError[];
  /** an update through `status` */
  validateStatus(obj: KubeObject, old: KubeObject, warnings: string[]): FieldError[];
}

/** A version's structural schema (the root of a CRD's openAPIV3Schema). */
export function versionSchema(version: CRDVersion): Schema {
  return version.schema?.openAPIV3Schema ?? { type: 'object' };
}

export function versionChecks(version: CRDVersion): VersionChecks {
  const schema = versionSchema(version);
  const defaulted = hasDefaults(schema);
  // compiled once per served version; undefined when the schema has no x-kubernetes-validations
  const validator = compileValidator(schema);
  const withRules = (
    errs: FieldError[],
    obj: KubeObject,
    old: KubeObject | undefined,
    warnings: string[],
  ) => {
    const blocking = blockingError(errs);
    if (blocking) return [...errs, blocking];
    if (!validator) return errs;
    const failed = validator.validate(obj, old, { warnings });
    return failed.length === 0 ? errs : [...errs, ...failed];
  };
  return {
    defaults(obj) {
      if (defaulted) applyDefaults(schema, obj);
    },
    validate(obj, old, warnings) {
      const options = old ? { correlation: correlate(obj, old, schema) } : {};
      return withRules(validateCustomResource(schema, obj, options), obj, old, warnings);
    },
    validateStatus(obj, old, warnings) {
      return withRules(validateCustomResourceStatus(schema, obj, old), obj, old, warnings);
    },
  };
}
