/**
 * Shared apimachinery schemas for objects: ObjectMeta and what it uses, plus autoscaling/v1 Scale (served by
 * every `scale` subresource). Definitions may carry their own copies (marked `x-pgkube-ref`); these are the
 * fallback so every `$ref` in a document resolves. Descriptions are ours.
 */
import type { Schema } from '../api/index.js';

export const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';

export const str = (description: string): Schema => ({ type: 'string', description });
export const int64 = (description: string): Schema => ({ type: 'integer', format: 'int64', description });
export const int32 = (description: string): Schema => ({ type: 'integer', format: 'int32', description });
export const bool = (description: string): Schema => ({ type: 'boolean', description });
export const ref = (name: string, description?: string): Schema => ({
  'x-pgkube-ref': name,
  ...(description === undefined ? {} : { description }),
});
export const stringMap = (description: string): Schema => ({
  type: 'object',
  description,
  additionalProperties: { type: 'string', default: '' },
});
export const apiVersionField = str('The versioned schema this object is written in (group/version).');
export const kindField = str('The REST kind of this object, in CamelCase.');

const time = (description: string): Schema => ref(`${META}.Time`, description);

export const metaObjectSchemas: Record<string, Schema> = {
  [`${META}.Time`]: {
    type: 'string',
    format: 'date-time',
    description: 'A timestamp in RFC 3339 form with second precision, e.g. 2024-01-02T15:04:05Z.',
  },
  [`${META}.MicroTime`]: {
    type: 'string',
    format: 'date-time',
    description: 'A timestamp in RFC 3339 form with microsecond precision.',
  },
  [`${META}.FieldsV1`]: {
    type: 'object',
    description: 'A set of field paths in the trie form server-side apply records them in.',
  },
  [`${META}.ManagedFieldsEntry`]: {
    type: 'object',
    description: 'Which fields one manager owns, and through which operation it last set them.',
    properties: {
      apiVersion: str('The version of the object the field set refers to.'),
      fieldsType: str('The format of fieldsV1; only "FieldsV1" exists.'),
      fieldsV1: ref(`${META}.FieldsV1`, 'The owned fields.'),
      manager: str('Who manages these fields.'),
      operation: str('Apply or Update: the kind of request that set these fields.'),
      subresource: str('The subresource the fields were written through, empty for the main resource.'),
      time: time('When the entry last changed.'),
    },
  },
  [`${META}.OwnerReference`]: {
    type: 'object',
    description: 'Points at an object this one depends on, in the same namespace or cluster-scoped.',
    required: ['apiVersion', 'kind', 'name', 'uid'],
    properties: {
      apiVersion: str('API version of the owner.'),
      blockOwnerDeletion: bool('When true, foreground deletion of the owner waits for this object to go.'),
      controller: bool('Marks the managing controller; at most one owner may set it.'),
      kind: str('Kind of the owner.'),
      name: str('Name of the owner.'),
      uid: str('UID of the owner.'),
    },
    'x-kubernetes-map-type': 'atomic',
  },
  [`${META}.ObjectMeta`]: {
    type: 'object',
    description: 'Metadata every persisted object carries.',
    properties: {
      annotations: stringMap('Arbitrary non-identifying key/value data for tools.'),
      creationTimestamp: time('When the server created the object. Read-only.'),
      deletionGracePeriodSeconds: int64(
        'Seconds granted for graceful termination once deletion starts. Read-only.',
      ),
      deletionTimestamp: time('When deletion was requested; set by the server. Read-only.'),
      finalizers: {
        type: 'array',
        description: 'Conditions that must be cleared before the object is removed from storage.',
        items: { type: 'string', default: '' },
        'x-kubernetes-list-type': 'set',
        'x-kubernetes-patch-strategy': 'merge',
      },
      generateName: str('Prefix the server completes into a unique name when name is empty.'),
      generation: int64('Sequence number of changes to the desired state. Read-only.'),
      labels: stringMap('Key/value pairs selectors match on.'),
      managedFields: {
        type: 'array',
        description: 'Field ownership recorded by server-side apply.',
        items: ref(`${META}.ManagedFieldsEntry`),
        'x-kubernetes-list-type': 'atomic',
      },
      name: str('Unique name within the namespace (or the cluster, for cluster-scoped kinds).'),
      namespace: str('Namespace of the object; empty for cluster-scoped kinds.'),
      ownerReferences: {
        type: 'array',
        description: 'Objects this one depends on; garbage collection removes it when they are gone.',
        items: ref(`${META}.OwnerReference`),
        'x-kubernetes-list-map-keys': ['uid'],
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-patch-merge-key': 'uid',
        'x-kubernetes-patch-strategy': 'merge',
      },
      resourceVersion: str(
        'Opaque version of this state of the object, for concurrency control and watches.',
      ),
      selfLink: str('Deprecated and never set.'),
      uid: str('Unique id of this object across time. Read-only.'),
    },
  },
  'io.k8s.api.autoscaling.v1.ScaleSpec': {
    type: 'object',
    description: 'Desired size of a scalable resource.',
    properties: { replicas: int32('Desired number of instances.') },
  },
  'io.k8s.api.autoscaling.v1.ScaleStatus': {
    type: 'object',
    description: 'Observed size of a scalable resource.',
    required: ['replicas'],
    properties: {
      replicas: int32('Observed number of instances.'),
      selector: str('Label selector of the instances, in string form.'),
    },
  },
  'io.k8s.api.autoscaling.v1.Scale': {
    type: 'object',
    description: 'The scale subresource of a scalable resource.',
    properties: {
      apiVersion: apiVersionField,
      kind: kindField,
      metadata: ref(`${META}.ObjectMeta`, 'Standard object metadata.'),
      spec: ref('io.k8s.api.autoscaling.v1.ScaleSpec', 'Desired size.'),
      status: ref('io.k8s.api.autoscaling.v1.ScaleStatus', 'Observed size. Read-only.'),
    },
  },
};
