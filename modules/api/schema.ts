/** The shape of API objects every module reads: definitions, codecs, apply, OpenAPI. */
/** One of a CRD schema's `x-kubernetes-validations`: a CEL rule and what to answer when it is false. */
export interface ValidationRule {
  rule: string;
  message?: string;
  messageExpression?: string;
  /** FieldValueInvalid (default), FieldValueForbidden, FieldValueRequired or FieldValueDuplicate */
  reason?: string;
  /** JSONPath-like path (`.spec.x`, `['a.b']`, `[0]`) the error is reported at, relative to the rule's node */
  fieldPath?: string;
  /** a transition rule also runs on create (and where the old value is absent), with `oldSelf` an optional */
  optionalOldSelf?: boolean;
}

/**
 * OpenAPI v3 schema, as in a CRD's `openAPIV3Schema` (JSONSchemaProps), with kube's `x-kubernetes-*` markers.
 * Built-in kinds use the structural subset; a CRD's schema arrives with every field a user may write, and
 * `modules/apiextensions` refuses what a structural schema may not hold.
 */
export interface Schema {
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  format?: string;
  title?: string;
  description?: string;
  properties?: Record<string, Schema>;
  additionalProperties?: Schema | boolean;
  items?: Schema;
  required?: string[];
  enum?: unknown[];
  default?: unknown;
  nullable?: boolean;
  maxLength?: number;
  minLength?: number;
  maxItems?: number;
  minItems?: number;
  uniqueItems?: boolean;
  maxProperties?: number;
  minProperties?: number;
  maximum?: number;
  minimum?: number;
  exclusiveMaximum?: boolean;
  exclusiveMinimum?: boolean;
  multipleOf?: number;
  pattern?: string;
  allOf?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  not?: Schema;
  example?: unknown;
  externalDocs?: { description?: string; url?: string };
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: 'atomic' | 'granular';
  'x-kubernetes-patch-strategy'?: string;
  'x-kubernetes-patch-merge-key'?: string;
  'x-kubernetes-validations'?: ValidationRule[];
  /** OpenAPI component name for shared types (e.g. io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta) */
  'x-pgkube-ref'?: string;
  /** the Go field is a pointer: an explicit zero value is meaningful and only set values are encoded */
  'x-pgkube-pointer'?: boolean;
  /** protobuf field number of this property within its parent message (used by the Protobuf codec) */
  'x-pgkube-protobuf'?: number;
  /**
   * the property belongs to a struct its Go parent embeds inline (VolumeSource in Volume): on the wire it sits
   * in the message at this field number of the parent, as its field `x-pgkube-protobuf`
   */
  'x-pgkube-protobuf-embedded'?: number;
}
