/** A synthetic kind for the specs of managed-fields and server-side apply: one field per merge marker. */
import type { Schema } from '../../modules/registry/index.js';
import { objectMetaSchema } from '../../modules/api/index.js';

const str: Schema = { type: 'string' };
const int: Schema = { type: 'integer' };

const portSchema: Schema = {
  type: 'object',
  properties: { name: str, port: int, protocol: { type: 'string', default: 'TCP' } },
};

const containerSchema: Schema = {
  type: 'object',
  properties: { name: str, image: str, args: { type: 'array', items: str } },
};

/** `spec` fields, named after what they exercise */
export const widgetSpecSchema: Schema = {
  type: 'object',
  properties: {
    replicas: int,
    paused: { type: 'boolean' },
    /** x-kubernetes-list-type: set */
    tags: { type: 'array', items: str, 'x-kubernetes-list-type': 'set' },
    /** patch-strategy merge without a key: a set by default */
    aliases: { type: 'array', items: str, 'x-kubernetes-patch-strategy': 'merge' },
    /** x-kubernetes-list-type: map with two keys, one of them defaulted */
    ports: {
      type: 'array',
      items: portSchema,
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['port', 'protocol'],
    },
    /** patch-strategy merge with a merge key: a map keyed by name by default */
    containers: {
      type: 'array',
      items: containerSchema,
      'x-kubernetes-patch-strategy': 'merge',
      'x-kubernetes-patch-merge-key': 'name',
    },
    /** no marker: atomic */
    args: { type: 'array', items: str },
    /** x-kubernetes-list-type: atomic over mergeable-looking items */
    steps: { type: 'array', items: containerSchema, 'x-kubernetes-list-type': 'atomic' },
    /** granular map */
    env: { type: 'object', additionalProperties: str },
    /** atomic map */
    selector: { type: 'object', additionalProperties: str, 'x-kubernetes-map-type': 'atomic' },
    /** atomic struct */
    target: {
      type: 'object',
      properties: { kind: str, name: str },
      'x-kubernetes-map-type': 'atomic',
    },
    /** granular struct */
    strategy: { type: 'object', properties: { type: str, maxSurge: int } },
    /** anything goes: maps granular, lists atomic */
    extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
  },
};

export const widgetSchema: Schema = {
  type: 'object',
  properties: {
    apiVersion: str,
    kind: str,
    metadata: objectMetaSchema,
    spec: widgetSpecSchema,
    status: { type: 'object', properties: { phase: str } },
  },
};

export const widgetApiVersion = 'example.com/v1';

/** A Widget with the given spec (and optional metadata additions). */
export function widget(spec: Record<string, unknown>, metadata: Record<string, unknown> = {}) {
  return {
    apiVersion: widgetApiVersion,
    kind: 'Widget',
    metadata: { name: 'w', namespace: 'ns', ...metadata },
    spec,
  };
}

/**
 * A built-in-like kind (protobuf field numbers, pointer markers): its non-pointer structs exist even when a
 * JSON object leaves them out, as in kube's Go types.
 */
export const gadgetSchema: Schema = {
  type: 'object',
  properties: {
    apiVersion: str,
    kind: str,
    metadata: { ...objectMetaSchema, 'x-pgkube-protobuf': 1 },
    spec: {
      type: 'object',
      'x-pgkube-protobuf': 2,
      // Go writes containers even when empty (no omitempty), so it exists as null before anything is set
      required: ['containers'],
      properties: {
        replicas: { type: 'integer', 'x-pgkube-protobuf': 1, 'x-pgkube-pointer': true },
        strategy: {
          type: 'object',
          'x-pgkube-protobuf': 2,
          properties: {
            type: { type: 'string', 'x-pgkube-protobuf': 1 },
            rollingUpdate: {
              type: 'object',
              'x-pgkube-protobuf': 2,
              'x-pgkube-pointer': true,
              properties: { maxSurge: { type: 'integer', 'x-pgkube-protobuf': 1 } },
            },
          },
        },
        containers: {
          type: 'array',
          'x-pgkube-protobuf': 3,
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          items: {
            type: 'object',
            required: ['name'],
            properties: {
              name: { type: 'string', 'x-pgkube-protobuf': 1 },
              image: { type: 'string', 'x-pgkube-protobuf': 2 },
              resources: {
                type: 'object',
                'x-pgkube-protobuf': 3,
                properties: { limits: { type: 'object', 'x-pgkube-protobuf': 1, additionalProperties: str } },
              },
            },
          },
        },
      },
    },
  },
};
