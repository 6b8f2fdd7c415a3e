/**
 * What one CRD version's schema asks of its objects on every write: defaults, then validation (types, formats,
 * list types, metadata, CEL rules), ratcheted against the old object on update.
 */
import type { FieldError, KubeObject } from '../api/index.js';
import type { CRDVersion, CustomResourceDefinition } from './crd/index.js';

export interface VersionChecks {
  defaults(obj: KubeObject): void;
  validate(obj: KubeObject, old?: KubeObject): FieldError[];
}

export function versionChecks(_crd: CustomResourceDefinition, _version: CRDVersion): VersionChecks {
  return { defaults: () => undefined, validate: () => [] };
}
