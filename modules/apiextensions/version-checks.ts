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
import type { CRDVersion } from './crd/index.js';

export interface VersionChecks {
  defaults(obj: KubeObject): void;
  /** a create (no `old`) or an update of the main resource */
  validate(obj: KubeObject, old?: KubeObject): FieldError[];
  /** an update through `status` */
  validateStatus(obj: KubeObject, old: KubeObject): FieldError[];
}

/** A version's structural schema (the root of a CRD's openAPIV3Schema). */
export function versionSchema(version: CRDVersion): Schema {
  return version.schema?.openAPIV3Schema ?? { type: 'object' };
}

export function versionChecks(version: CRDVersion): VersionChecks {
  const schema = versionSchema(version);
  const defaulted = hasDefaults(schema);
  const rules = (errs: FieldError[]): FieldError[] => {
    const blocking = blockingError(errs);
    return blocking ? [...errs, blocking] : errs;
  };
  return {
    defaults(obj) {
      if (defaulted) applyDefaults(schema, obj);
    },
    validate(obj, old) {
      const options = old ? { correlation: correlate(obj, old, schema) } : {};
      return rules(validateCustomResource(schema, obj, options));
    },
    validateStatus(obj, old) {
      return rules(validateCustomResourceStatus(schema, obj, old));
    },
  };
}
