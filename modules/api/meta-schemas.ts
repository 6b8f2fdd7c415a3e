/**
 * Shared schemas (ObjectMeta and the small reference types) as Kubernetes v1.32 publishes them, each marked
 * with its OpenAPI component name so the OpenAPI generator can emit $refs. Property schemas carry the
 * protobuf field number within their parent message.
 *
 * These schemas describe built-in kinds; kube does not enforce them (Go decoding treats null as unset and
 * `required` / `enum` are informational), so they must not be used as CRD-style validation for built-ins.
 */
import type { Schema } from './index.js';

const metaV1 = 'io.k8s.apimachinery.pkg.apis.meta.v1';
const coreV1 = 'io.k8s.api.core.v1';

/**
 * A property: `schema` placed at protobuf field `n` of its parent, optionally with its own description.
 * Shared schemas (marked `x-pgkube-ref`) keep their own description at every use: the OpenAPI generator takes
 * the first use it meets as the component's content.
 */
export function field(n: number, schema: Schema, description?: string): Schema {
  if (description && schema['x-pgkube-ref'])
    throw new Error(`${schema['x-pgkube-ref']} keeps its own description`);
  return description
    ? { ...schema, description, 'x-pgkube-protobuf': n }
    : { ...schema, 'x-pgkube-protobuf': n };
}

/** Marks a field whose Go type is a pointer (see Schema['x-pgkube-pointer']). */
export const pointer = (schema: Schema): Schema => ({ ...schema, 'x-pgkube-pointer': true });

export const str = (n: number, description?: string): Schema => field(n, { type: 'string' }, description);
export const bool = (n: number, description?: string): Schema => field(n, { type: 'boolean' }, description);
export const int32 = (n: number, description?: string): Schema =>
  field(n, { type: 'integer', format: 'int32' }, description);
export const int64 = (n: number, description?: string): Schema =>
  field(n, { type: 'integer', format: 'int64' }, description);

/** map<string,string>, e.g. labels or ConfigMap data */
export const stringMap = (n: number, description?: string): Schema =>
  field(n, { type: 'object', additionalProperties: { type: 'string' } }, description);

/** map<string,bytes>: base64 strings in JSON (Secret data, ConfigMap binaryData) */
export const bytesMap = (n: number, description?: string): Schema =>
  field(n, { type: 'object', additionalProperties: { type: 'string', format: 'byte' } }, description);

export const timeSchema: Schema = {
  type: 'string',
  format: 'date-time',
  description: 'A timestamp in RFC 3339 form with second precision, always in UTC.',
  'x-pgkube-ref': `${metaV1}.Time`,
};

export const microTimeSchema: Schema = {
  type: 'string',
  format: 'date-time',
  description: 'A timestamp in RFC 3339 form with microsecond precision.',
  'x-pgkube-ref': `${metaV1}.MicroTime`,
};

/** Field sets are opaque JSON to everything but server-side apply, so unknown fields are kept. */
export const fieldsV1Schema: Schema = {
  type: 'object',
  description: 'A set of field paths in the FieldsV1 trie format used by server-side apply.',
  'x-kubernetes-preserve-unknown-fields': true,
  'x-pgkube-ref': `${metaV1}.FieldsV1`,
};

export const managedFieldsEntrySchema: Schema = {
  type: 'object',
  description: 'The fields one manager owns in an object, and how it last wrote them.',
  properties: {
    apiVersion: str(3, 'The version of the API the field set was written in.'),
    fieldsType: str(6, 'The format of fieldsV1; always "FieldsV1".'),
    fieldsV1: pointer(field(7, fieldsV1Schema)),
    manager: str(1, 'The name of the workflow that manages these fields.'),
    operation: str(2, 'How the fields were last written: "Apply" or "Update".'),
    subresource: str(8, 'The subresource the fields were written through, empty for the main resource.'),
    time: pointer(field(4, timeSchema)),
  },
  'x-pgkube-ref': `${metaV1}.ManagedFieldsEntry`,
};

export const ownerReferenceSchema: Schema = {
  type: 'object',
  description:
    'Points at an object this one depends on; the owner must live in the same namespace or be cluster-scoped.',
  properties: {
    apiVersion: str(5, 'API version of the owner.'),
    blockOwnerDeletion: pointer(
      bool(7, 'When true with foreground deletion, the owner is not removed before this object.'),
    ),
    controller: pointer(
      bool(6, 'True when the owner is the managing controller; at most one reference may set it.'),
    ),
    kind: str(1, 'Kind of the owner.'),
    name: str(3, 'Name of the owner.'),
    uid: str(4, 'UID of the owner.'),
  },
  required: ['apiVersion', 'kind', 'name', 'uid'],
  'x-kubernetes-map-type': 'atomic',
  'x-pgkube-ref': `${metaV1}.OwnerReference`,
};

export const objectMetaSchema: Schema = {
  type: 'object',
  description: 'Metadata every persisted object has.',
  properties: {
    annotations: stringMap(
      12,
      'Unstructured key/value data tools attach to the object; not used for selection.',
    ),
    creationTimestamp: field(8, timeSchema),
    deletionGracePeriodSeconds: pointer(
      int64(10, 'Seconds the object is given to terminate gracefully; set by the server.'),
    ),
    deletionTimestamp: pointer(field(9, timeSchema)),
    finalizers: field(14, {
      type: 'array',
      description: 'Conditions that must clear before the object is removed from storage.',
      items: { type: 'string' },
      'x-kubernetes-list-type': 'set',
      'x-kubernetes-patch-strategy': 'merge',
    }),
    generateName: str(2, 'A prefix the server completes into a unique name when name is empty.'),
    generation: int64(7, 'A sequence number of changes to the desired state; set by the server.'),
    labels: stringMap(11, 'Key/value pairs used to organize and select objects.'),
    managedFields: field(17, {
      type: 'array',
      description: 'Which manager owns which fields, as tracked by server-side apply.',
      items: managedFieldsEntrySchema,
      'x-kubernetes-list-type': 'atomic',
    }),
    name: str(1, 'Unique name of the object within its namespace (or the cluster for cluster-scoped kinds).'),
    namespace: str(3, 'The namespace the object lives in; empty for cluster-scoped kinds.'),
    ownerReferences: field(13, {
      type: 'array',
      description: 'Objects this one depends on; it is garbage-collected once all of them are gone.',
      items: ownerReferenceSchema,
      'x-kubernetes-list-map-keys': ['uid'],
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-patch-merge-key': 'uid',
      'x-kubernetes-patch-strategy': 'merge',
    }),
    resourceVersion: str(6, 'Opaque version of the object, used for optimistic concurrency and watches.'),
    selfLink: str(4, 'Deprecated and never set.'),
    uid: str(5, 'Unique id the server assigns at creation; never reused.'),
  },
  'x-pgkube-ref': `${metaV1}.ObjectMeta`,
};

export const objectReferenceSchema: Schema = {
  type: 'object',
  description: 'Identifies another object, or a part of it.',
  properties: {
    apiVersion: str(5, 'API version of the referent.'),
    fieldPath: str(7, 'A path to a part of the referent, e.g. spec.containers{name}.'),
    kind: str(1, 'Kind of the referent.'),
    name: str(3, 'Name of the referent.'),
    namespace: str(2, 'Namespace of the referent.'),
    resourceVersion: str(6, 'The resourceVersion of the referent this reference was made against.'),
    uid: str(4, 'UID of the referent.'),
  },
  'x-kubernetes-map-type': 'atomic',
  'x-pgkube-ref': `${coreV1}.ObjectReference`,
};

export const localObjectReferenceSchema: Schema = {
  type: 'object',
  description: 'Names another object in the same namespace.',
  properties: {
    name: str(1, 'Name of the referent.'),
  },
  'x-kubernetes-map-type': 'atomic',
  'x-pgkube-ref': `${coreV1}.LocalObjectReference`,
};

export interface KindSchemaOptions {
  description: string;
  /** the kind's own top-level fields, besides apiVersion, kind and metadata */
  properties: Record<string, Schema>;
  required?: string[];
}

/** A kind's top-level schema: apiVersion, kind, metadata (protobuf field 1) and the kind's own fields. */
export function kindSchema(opts: KindSchemaOptions): Schema {
  const schema: Schema = {
    type: 'object',
    description: opts.description,
    properties: {
      apiVersion: {
        type: 'string',
        description: 'The versioned schema of this object, e.g. "v1" or "coordination.k8s.io/v1".',
      },
      kind: { type: 'string', description: 'The kind of this object, in CamelCase.' },
      metadata: field(1, objectMetaSchema),
      ...opts.properties,
    },
  };
  if (opts.required?.length) schema.required = opts.required;
  return schema;
}

/** metav1.LabelSelector and its requirements: shared by every kind that selects by labels */
export const labelSelectorRequirementSchema: Schema = {
  type: 'object',
  description: 'A label key, an operator and values.',
  required: ['key', 'operator'],
  properties: {
    key: str(1, 'The label key.'),
    operator: str(2, 'In, NotIn, Exists or DoesNotExist.'),
    values: field(
      3,
      { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'atomic' },
      'Values for In and NotIn; empty for Exists and DoesNotExist.',
    ),
  },
  'x-pgkube-ref': 'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelectorRequirement',
};

export const labelSelectorSchema: Schema = {
  type: 'object',
  description: 'A label query; its requirements are ANDed. Empty matches everything, null nothing.',
  properties: {
    matchExpressions: field(2, {
      type: 'array',
      description: 'Requirements on labels.',
      items: labelSelectorRequirementSchema,
      'x-kubernetes-list-type': 'atomic',
    }),
    matchLabels: field(1, {
      type: 'object',
      description: 'Labels that must be set to these values.',
      additionalProperties: { type: 'string' },
    }),
  },
  'x-kubernetes-map-type': 'atomic',
  'x-pgkube-ref': 'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector',
};

/** A port or other value given as a number or a name (intstr.IntOrString); one wire message of its own. */
export const intOrStringSchema: Schema = {
  type: 'string',
  format: 'int-or-string',
  description: 'A value that is either an integer or a string.',
  'x-kubernetes-int-or-string': true,
  'x-pgkube-ref': 'io.k8s.apimachinery.pkg.util.intstr.IntOrString',
};

/** metav1.Condition: the standard shape of status conditions (kinds' status.conditions). */
export const conditionSchema: Schema = {
  type: 'object',
  description: 'One aspect of the current state of an object.',
  properties: {
    lastTransitionTime: field(4, timeSchema),
    message: str(6, 'Human-readable details about the transition; may be empty.'),
    observedGeneration: int64(3, 'The metadata.generation the condition was set for.'),
    reason: str(5, 'Programmatic CamelCase identifier of why the condition last changed.'),
    status: str(2, 'Status of the condition: True, False or Unknown.'),
    type: str(1, 'Type of the condition, in CamelCase or as foo.example.com/CamelCase.'),
  },
  required: ['type', 'status', 'lastTransitionTime', 'reason', 'message'],
  'x-pgkube-ref': 'io.k8s.apimachinery.pkg.apis.meta.v1.Condition',
};
