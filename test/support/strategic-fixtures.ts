/**
 * Test schemas for strategic merge: a synthetic pod-like "Widget" with the list and map shapes built-in kinds
 * use (containers keyed by name, ports keyed by number, a set-merged string list, a retainKeys struct, a
 * replace-strategy map, atomic lists, a string map and an untyped field). Only the specs import this.
 */
import type { Schema } from '../../modules/registry/index.js';

const str: Schema = { type: 'string' };
const int: Schema = { type: 'integer' };

const mergeBy = (mergeKey: string, items: Schema, strategy = 'merge'): Schema => ({
  type: 'array',
  items,
  'x-kubernetes-patch-strategy': strategy,
  'x-kubernetes-patch-merge-key': mergeKey,
});

const stringMap: Schema = { type: 'object', additionalProperties: { type: 'string' } };

export const containerSchema: Schema = {
  type: 'object',
  'x-pgkube-ref': 'example.v1.Container',
  properties: {
    name: str,
    image: str,
    args: { type: 'array', items: str },
    env: mergeBy('name', { type: 'object', properties: { name: str, value: str } }),
    ports: mergeBy('containerPort', { type: 'object', properties: { containerPort: int, protocol: str } }),
    resources: { type: 'object', properties: { limits: stringMap, requests: stringMap } },
  },
};

const volumeSchema: Schema = {
  type: 'object',
  'x-pgkube-ref': 'example.v1.Volume',
  properties: {
    name: str,
    emptyDir: { type: 'object', properties: { medium: str } },
    hostPath: { type: 'object', properties: { path: str } },
    secret: { type: 'object', properties: { secretName: str } },
  },
};

export const widgetSpecSchema: Schema = {
  type: 'object',
  'x-pgkube-ref': 'example.v1.WidgetSpec',
  properties: {
    containers: mergeBy('name', containerSchema),
    volumes: mergeBy('name', volumeSchema, 'merge,retainKeys'),
    hostnames: { type: 'array', items: str, 'x-kubernetes-patch-strategy': 'merge' },
    weights: { type: 'array', items: int, 'x-kubernetes-patch-strategy': 'merge' },
    tolerations: { type: 'array', items: { type: 'object', properties: { key: str, value: str } } },
    rules: {
      type: 'array',
      items: { type: 'object', properties: { verb: str } },
      'x-kubernetes-patch-strategy': 'merge',
    },
    nodeSelector: stringMap,
    rollout: {
      type: 'object',
      'x-kubernetes-patch-strategy': 'retainKeys',
      properties: {
        type: str,
        rollingUpdate: { type: 'object', properties: { maxSurge: str, maxUnavailable: str } },
      },
    },
    template: {
      type: 'object',
      'x-kubernetes-patch-strategy': 'replace',
      properties: { a: str, b: str, nested: stringMap },
    },
    extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
    odd: { type: 'array', items: str, 'x-kubernetes-patch-strategy': 'merge,replace' },
  },
};

export const widgetSchema: Schema = {
  type: 'object',
  properties: {
    apiVersion: str,
    kind: str,
    metadata: { type: 'object', properties: { name: str, labels: stringMap } },
    spec: widgetSpecSchema,
  },
};

/** A Widget with the given spec. */
export function widget(spec: Record<string, unknown>): Record<string, unknown> {
  return { apiVersion: 'example.dev/v1', kind: 'Widget', metadata: { name: 'w' }, spec };
}
