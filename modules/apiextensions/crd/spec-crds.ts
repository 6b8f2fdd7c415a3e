/** CRDs for this folder's specs: a small valid one to vary, and one using every schema feature CRDs use. */
import type { Schema } from '../../api/index.js';
import type { CRDVersion, CustomResourceDefinition } from './types.js';

export const widgetSchema = (): Schema => ({
  type: 'object',
  properties: {
    apiVersion: { type: 'string' },
    kind: { type: 'string' },
    metadata: { type: 'object' },
    spec: {
      type: 'object',
      properties: {
        replicas: { type: 'integer', format: 'int32', default: 1 },
        color: { type: 'string', enum: ['red', 'blue'] },
      },
    },
    status: {
      type: 'object',
      properties: { replicas: { type: 'integer' }, selector: { type: 'string' } },
    },
  },
});

export function widgetVersion(name = 'v1', extra: Partial<CRDVersion> = {}): CRDVersion {
  return {
    name,
    served: true,
    storage: true,
    schema: { openAPIV3Schema: widgetSchema() },
    subresources: {
      status: {},
      scale: {
        specReplicasPath: '.spec.replicas',
        statusReplicasPath: '.status.replicas',
        labelSelectorPath: '.status.selector',
      },
    },
    additionalPrinterColumns: [{ name: 'Color', type: 'string', jsonPath: '.spec.color' }],
    ...extra,
  };
}

/** widgets.example.com, valid as it is (status as the create strategy leaves it). */
export function widgetCRD(mutate?: (crd: CustomResourceDefinition) => void): CustomResourceDefinition {
  const crd: CustomResourceDefinition = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      names: {
        plural: 'widgets',
        singular: 'widget',
        kind: 'Widget',
        listKind: 'WidgetList',
        shortNames: ['wd'],
        categories: ['all'],
      },
      scope: 'Namespaced',
      versions: [widgetVersion()],
      conversion: { strategy: 'None' },
    },
    status: { storedVersions: ['v1'] },
  };
  mutate?.(crd);
  return crd;
}

/** A schema with what big real-world CRDs use: int-or-string, embedded objects, list/map markers, CEL. */
export const featureSchema = (): Schema => ({
  type: 'object',
  properties: {
    metadata: { type: 'object', properties: { name: { type: 'string', maxLength: 63 } } },
    spec: {
      type: 'object',
      required: ['ports'],
      'x-kubernetes-validations': [
        { rule: 'self.minReplicas <= self.maxReplicas', message: 'min must not exceed max' },
        { rule: 'self.mode == oldSelf.mode', message: 'mode is immutable' },
      ],
      properties: {
        minReplicas: { type: 'integer', minimum: 0 },
        maxReplicas: { type: 'integer', maximum: 100 },
        mode: { type: 'string', default: 'fast', enum: ['fast', 'safe'] },
        port: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
        threshold: {
          'x-kubernetes-int-or-string': true,
          allOf: [{ anyOf: [{ type: 'integer' }, { type: 'string' }] }, { pattern: '^\\d+%?$' }],
        },
        template: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          'x-kubernetes-preserve-unknown-fields': true,
        },
        config: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        labels: {
          type: 'object',
          additionalProperties: { type: 'string' },
          'x-kubernetes-map-type': 'atomic',
        },
        tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set', maxItems: 16 },
        ports: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['port', 'protocol'],
          items: {
            type: 'object',
            required: ['port'],
            properties: {
              port: { type: 'integer', format: 'int32' },
              protocol: { type: 'string', default: 'TCP' },
              name: { type: 'string', nullable: true },
            },
          },
        },
        selector: {
          type: 'object',
          properties: { matchLabels: { type: 'object', additionalProperties: { type: 'string' } } },
          'x-kubernetes-map-type': 'atomic',
          oneOf: [{ required: ['matchLabels'] }, { properties: { matchLabels: { maxProperties: 3 } } }],
        },
      },
    },
    status: { type: 'object', properties: { phase: { type: 'string' } } },
  },
});
