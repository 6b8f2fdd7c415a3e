/** Small kind schemas shaped like kube's (Go type names in x-pgkube-ref), shared by this folder's specs. */
import type { Schema } from '../api/index.js';

const str: Schema = { type: 'string' };
const int32: Schema = { type: 'integer', format: 'int32' };
const int64: Schema = { type: 'integer', format: 'int64' };
const bool: Schema = { type: 'boolean' };
const stringMap: Schema = { type: 'object', additionalProperties: str };
const ref = (name: string, schema: Schema): Schema => ({ ...schema, 'x-pgkube-ref': name });

export const time = ref('io.k8s.apimachinery.pkg.apis.meta.v1.Time', { type: 'string', format: 'date-time' });
const microTime = ref('io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime', {
  type: 'string',
  format: 'date-time',
});
const quantity = ref('io.k8s.apimachinery.pkg.api.resource.Quantity', { 'x-kubernetes-int-or-string': true });
const intOrString = ref('io.k8s.apimachinery.pkg.util.intstr.IntOrString', {
  'x-kubernetes-int-or-string': true,
});

const objectMeta = ref('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta', {
  type: 'object',
  properties: {
    name: str,
    namespace: str,
    labels: stringMap,
    annotations: stringMap,
    generation: int64,
    creationTimestamp: time,
    finalizers: { type: 'array', items: str },
    managedFields: {
      type: 'array',
      items: ref('io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry', {
        type: 'object',
        properties: {
          manager: str,
          fieldsV1: ref('io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1', {
            type: 'object',
            'x-kubernetes-preserve-unknown-fields': true,
          }),
        },
      }),
    },
  },
});

function kind(properties: Record<string, Schema>): Schema {
  return { type: 'object', properties: { apiVersion: str, kind: str, metadata: objectMeta, ...properties } };
}

export const configMapSchema = kind({
  data: stringMap,
  binaryData: { type: 'object', additionalProperties: { type: 'string', format: 'byte' } },
  immutable: bool,
});

export const secretSchema = kind({
  data: { type: 'object', additionalProperties: { type: 'string', format: 'byte' } },
  type: str,
});

export const leaseSchema = kind({
  spec: ref('io.k8s.api.coordination.v1.LeaseSpec', {
    type: 'object',
    properties: { holderIdentity: str, leaseDurationSeconds: int32, renewTime: microTime },
  }),
});

const container = ref('io.k8s.api.core.v1.Container', {
  type: 'object',
  properties: {
    name: str,
    image: str,
    args: { type: 'array', items: str },
    ports: {
      type: 'array',
      items: ref('io.k8s.api.core.v1.ContainerPort', {
        type: 'object',
        properties: { containerPort: int32, protocol: str },
      }),
    },
    resources: ref('io.k8s.api.core.v1.ResourceRequirements', {
      type: 'object',
      properties: { limits: { type: 'object', additionalProperties: quantity } },
    }),
  },
});

export const deploymentSchema = kind({
  spec: ref('io.k8s.api.apps.v1.DeploymentSpec', {
    type: 'object',
    properties: {
      replicas: int32,
      paused: bool,
      strategy: ref('io.k8s.api.apps.v1.DeploymentStrategy', {
        type: 'object',
        properties: {
          type: str,
          rollingUpdate: ref('io.k8s.api.apps.v1.RollingUpdateDeployment', {
            type: 'object',
            properties: { maxSurge: intOrString, maxUnavailable: intOrString },
          }),
        },
      }),
      template: ref('io.k8s.api.core.v1.PodTemplateSpec', {
        type: 'object',
        properties: {
          metadata: objectMeta,
          spec: ref('io.k8s.api.core.v1.PodSpec', {
            type: 'object',
            properties: {
              containers: { type: 'array', items: container },
              nodeSelector: stringMap,
              volumesByName: {
                type: 'object',
                additionalProperties: ref('io.k8s.api.core.v1.Volume', {
                  type: 'object',
                  properties: { path: str },
                }),
              },
            },
          }),
        },
      }),
    },
  }),
  status: ref('io.k8s.api.apps.v1.DeploymentStatus', {
    type: 'object',
    properties: { replicas: int32, observedGeneration: int64 },
  }),
});

/** A custom resource's structural schema (decoded untyped). */
export const widgetSchema: Schema = {
  type: 'object',
  properties: {
    apiVersion: str,
    kind: str,
    metadata: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
    spec: {
      type: 'object',
      properties: {
        replicas: { type: 'integer' },
        note: { type: 'string', nullable: true },
        config: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        anything: { 'x-kubernetes-preserve-unknown-fields': true },
        loose: { type: 'object', additionalProperties: true },
        items: { type: 'array', items: { type: 'object', properties: { name: str } } },
        sizes: { type: 'object', additionalProperties: { type: 'integer' } },
        template: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } },
        },
      },
    },
  },
};

/** JSONSchemaProps-like: a schema that contains itself. */
export function cyclicSchema(): Schema {
  const props: Schema = { type: 'object', properties: { type: str, description: str } };
  props.properties!.properties = { type: 'object', additionalProperties: props };
  props.properties!.items = props;
  return kind({ schema: props });
}
