/** The shape of API objects every module reads: definitions, codecs, apply, OpenAPI. */
/** OpenAPI v3 structural schema, as in a CRD's `openAPIV3Schema`, with kube's `x-kubernetes-*` markers. */
export interface Schema {
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  format?: string;
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
  maximum?: number;
  minimum?: number;
  pattern?: string;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: 'atomic' | 'granular';
  'x-kubernetes-patch-strategy'?: string;
  'x-kubernetes-patch-merge-key'?: string;
  /** OpenAPI component name for shared types (e.g. io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta) */
  'x-pgkube-ref'?: string;
  /** the Go field is a pointer: an explicit zero value is meaningful and only set values are encoded */
  'x-pgkube-pointer'?: boolean;
  /** protobuf field number of this property within its parent message (used by the Protobuf codec) */
  'x-pgkube-protobuf'?: number;
}
