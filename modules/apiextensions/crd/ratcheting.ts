/**
 * kube never tightens validation on what is already stored: an update is held to a rule only when the old
 * CRD already met it. These read the old CRD and say which rules still apply.
 */
import { mapListKeysAndSets, openapiV3Types } from './openapi-schema.js';
import { pruned } from './default-values.js';
import { allSchemas, internalSpec, type InternalSpec } from './internal.js';
import { jsonEqual, raw, schemaHas, subSchema, typeOf, type Raw } from './schema-walk.js';
import { structuralBuildError, validateStructural } from './structural.js';
import { hasAcceptedReviewVersionOrEmpty, caBundleError } from './validation-conversion.js';
import { isConditionTrue, type CustomResourceDefinition } from './types.js';

export interface Ratchet {
  requireRecognizedConversionReviewVersion: boolean;
  requireImmutableNames: boolean;
  requireOpenAPISchema: boolean;
  requireValidPropertyType: boolean;
  requireStructuralSchema: boolean;
  requirePrunedDefaults: boolean;
  requireAtomicSetType: boolean;
  requireMapListKeysMapSetValidation: boolean;
  allowInvalidCABundle: boolean;
}

/** A create is held to every rule. */
export const strictest: Ratchet = {
  requireRecognizedConversionReviewVersion: true,
  requireImmutableNames: false,
  requireOpenAPISchema: true,
  requireValidPropertyType: true,
  requireStructuralSchema: true,
  requirePrunedDefaults: true,
  requireAtomicSetType: true,
  requireMapListKeysMapSetValidation: true,
  // the CRD is not Established yet; the establishing controller reports a bad bundle
  allowInvalidCABundle: true,
};

const anySchema = (spec: InternalSpec, pred: (s: Raw) => boolean): boolean =>
  allSchemas(spec).some((s) => schemaHas(raw(s), pred));

function nonStructural(s: Raw): boolean {
  return structuralBuildError(s) !== undefined || validateStructural(s, '').length > 0;
}

function unprunedDefault(s: Raw): boolean {
  const d = s.default;
  return (
    d !== undefined && d !== null && !jsonEqual(pruned(d, s, s['x-kubernetes-embedded-resource'] === true), d)
  );
}

function nonAtomicSetItems(s: Raw): boolean {
  const items = subSchema(s, 'items');
  if (s['x-kubernetes-list-type'] !== 'set' || !items) return false;
  if (typeOf(items) === 'array')
    return (
      typeof items['x-kubernetes-list-type'] === 'string' && items['x-kubernetes-list-type'] !== 'atomic'
    );
  if (typeOf(items) === 'object') return items['x-kubernetes-map-type'] !== 'atomic';
  return false;
}

export function ratchetFrom(old: CustomResourceDefinition): Ratchet {
  const spec = internalSpec(old);
  const schemas = allSchemas(spec);
  const established = isConditionTrue(old, 'Established');
  const caBundle = spec.conversion?.webhookClientConfig?.caBundle;
  return {
    requireRecognizedConversionReviewVersion:
      !spec.conversion || hasAcceptedReviewVersionOrEmpty(spec.conversion.conversionReviewVersions),
    requireImmutableNames: established,
    requireOpenAPISchema:
      spec.validation?.openAPIV3Schema !== undefined ||
      spec.versions.every((v) => v.validation?.openAPIV3Schema),
    requireValidPropertyType: !anySchema(
      spec,
      (s) => typeOf(s) !== '' && !openapiV3Types.includes(typeOf(s)),
    ),
    requireStructuralSchema: !schemas.some((s) => nonStructural(raw(s))),
    requirePrunedDefaults: !schemas.some((s) => !nonStructural(raw(s)) && schemaHas(raw(s), unprunedDefault)),
    requireAtomicSetType: !anySchema(spec, nonAtomicSetItems),
    requireMapListKeysMapSetValidation: !anySchema(spec, (s) => mapListKeysAndSets(s, '').length > 0),
    allowInvalidCABundle: !established || (caBundle ? caBundleError(caBundle) !== undefined : false),
  };
}
