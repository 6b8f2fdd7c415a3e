/** Small definitions the discovery and OpenAPI specs share (the real kinds live in modules/kinds/). */
import { allVerbs, type ResourceDefinition, type Schema } from '../../modules/registry/index.js';

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';

export const objectMeta: Schema = {
  'x-pgkube-ref': `${META}.ObjectMeta`,
  type: 'object',
  description: 'Standard object metadata.',
  properties: {
    name: { type: 'string', description: 'Name.', 'x-pgkube-protobuf': 1 },
    namespace: { type: 'string', description: 'Namespace.', 'x-pgkube-protobuf': 3 },
    labels: { type: 'object', additionalProperties: { type: 'string' }, 'x-pgkube-protobuf': 11 },
    creationTimestamp: { 'x-pgkube-ref': `${META}.Time`, description: 'Creation time.' },
    ownerReferences: {
      type: 'array',
      items: {
        'x-pgkube-ref': `${META}.OwnerReference`,
        type: 'object',
        required: ['uid'],
        properties: { uid: { type: 'string' }, name: { type: 'string' } },
      },
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['uid'],
      'x-kubernetes-patch-strategy': 'merge',
      'x-kubernetes-patch-merge-key': 'uid',
    },
  },
};

const typeMeta = {
  apiVersion: { type: 'string', description: 'API version.', 'x-pgkube-protobuf': 100 },
  kind: { type: 'string', description: 'Kind.', 'x-pgkube-protobuf': 101 },
} satisfies Record<string, Schema>;

const base = { nameRule: 'dns1123Subdomain', strategy: {} } as const;

export const configMaps: ResourceDefinition = {
  ...base,
  group: '',
  versions: ['v1'],
  storageVersion: 'v1',
  resource: 'configmaps',
  singular: 'configmap',
  kind: 'ConfigMap',
  listKind: 'ConfigMapList',
  scope: 'Namespaced',
  shortNames: ['cm'],
  verbs: allVerbs,
  description: 'Configuration data as key/value pairs.',
  schema: {
    type: 'object',
    properties: {
      ...typeMeta,
      metadata: { ...objectMeta, 'x-pgkube-protobuf': 1 },
      data: { type: 'object', additionalProperties: { type: 'string' }, 'x-pgkube-protobuf': 2 },
      binaryData: {
        type: 'object',
        additionalProperties: { type: 'string', format: 'byte' },
        'x-pgkube-protobuf': 3,
      },
      immutable: { type: 'boolean', 'x-pgkube-protobuf': 4 },
    },
  },
};

export const namespaces: ResourceDefinition = {
  ...base,
  nameRule: 'dns1123Label',
  group: '',
  versions: ['v1'],
  storageVersion: 'v1',
  resource: 'namespaces',
  singular: 'namespace',
  kind: 'Namespace',
  listKind: 'NamespaceList',
  scope: 'Cluster',
  shortNames: ['ns'],
  verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
  subresources: ['status', 'finalize'],
  description: 'A scope for names.',
  schema: {
    type: 'object',
    properties: {
      ...typeMeta,
      // a bare pointer: the content comes from another definition
      metadata: { 'x-pgkube-ref': `${META}.ObjectMeta`, description: 'Standard object metadata.' },
      spec: {
        'x-pgkube-ref': 'io.k8s.api.core.v1.NamespaceSpec',
        type: 'object',
        properties: {
          finalizers: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'atomic' },
        },
      },
      status: {
        type: 'object',
        properties: {
          phase: { type: 'string', enum: ['Active', 'Terminating'] },
          conditions: {
            type: 'array',
            items: {
              'x-pgkube-ref': 'io.k8s.api.core.v1.NamespaceCondition',
              type: 'object',
              required: ['type', 'status'],
              properties: { type: { type: 'string' }, status: { type: 'string' } },
            },
            'x-kubernetes-list-type': 'map',
            'x-kubernetes-list-map-keys': ['type'],
          },
        },
      },
    },
  },
};

export const pods: ResourceDefinition = {
  ...base,
  group: '',
  versions: ['v1'],
  storageVersion: 'v1',
  resource: 'pods',
  singular: 'pod',
  kind: 'Pod',
  listKind: 'PodList',
  scope: 'Namespaced',
  shortNames: ['po'],
  categories: ['all'],
  verbs: allVerbs,
  subresources: ['status', 'binding', 'eviction', 'log', 'exec'],
  description: 'A group of containers.',
  schema: { type: 'object', properties: { ...typeMeta, metadata: objectMeta } },
};

export const leases: ResourceDefinition = {
  ...base,
  group: 'coordination.k8s.io',
  versions: ['v1'],
  storageVersion: 'v1',
  resource: 'leases',
  singular: 'lease',
  kind: 'Lease',
  listKind: 'LeaseList',
  scope: 'Namespaced',
  verbs: allVerbs,
  description: 'A lease.',
  schema: {
    type: 'object',
    properties: {
      ...typeMeta,
      metadata: objectMeta,
      spec: {
        'x-pgkube-ref': 'io.k8s.api.coordination.v1.LeaseSpec',
        type: 'object',
        properties: {
          holderIdentity: { type: 'string' },
          renewTime: { 'x-pgkube-ref': `${META}.MicroTime`, description: 'Last renewal.' },
        },
      },
    },
  },
};

export const deployments: ResourceDefinition = {
  ...base,
  group: 'apps',
  versions: ['v1'],
  storageVersion: 'v1',
  resource: 'deployments',
  singular: 'deployment',
  kind: 'Deployment',
  listKind: 'DeploymentList',
  scope: 'Namespaced',
  shortNames: ['deploy'],
  categories: ['all'],
  verbs: allVerbs,
  subresources: ['status', 'scale'],
  description: 'Declarative updates for pods.',
  schema: { type: 'object', properties: { ...typeMeta, metadata: objectMeta } },
};

export const cronTabs: ResourceDefinition = {
  ...base,
  group: 'stable.example.com',
  // deliberately not in preference order: discovery orders versions itself
  versions: ['v1beta1', 'v1'],
  storageVersion: 'v1',
  resource: 'crontabs',
  singular: 'crontab',
  kind: 'CronTab',
  listKind: 'CronTabList',
  scope: 'Namespaced',
  shortNames: ['ct'],
  categories: ['all'],
  verbs: allVerbs,
  subresources: ['status', 'scale'],
  description: 'A cron tab.',
  schema: {
    type: 'object',
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: { type: 'object' },
      spec: {
        type: 'object',
        required: ['cronSpec', 'note'],
        properties: {
          cronSpec: { type: 'string', pattern: '^\\S+ \\S+ \\S+ \\S+ \\S+$' },
          note: { type: 'string', nullable: true },
          port: { 'x-kubernetes-int-or-string': true },
          extra: {
            type: 'object',
            'x-kubernetes-preserve-unknown-fields': true,
            properties: { known: { type: 'string' } },
          },
          tags: { type: 'object', additionalProperties: { type: 'string' } },
          jobs: {
            type: 'array',
            items: { type: 'object', properties: { name: { type: 'string' } } },
            'x-kubernetes-list-type': 'map',
            'x-kubernetes-list-map-keys': ['name'],
          },
        },
      },
    },
  },
};

export const clusterWidgets: ResourceDefinition = {
  ...base,
  group: 'widgets.example.org',
  versions: ['v1alpha1'],
  storageVersion: 'v1alpha1',
  resource: 'clusterwidgets',
  singular: 'clusterwidget',
  kind: 'ClusterWidget',
  listKind: 'ClusterWidgetList',
  scope: 'Cluster',
  verbs: ['get', 'list'],
  description: 'A read-only cluster-scoped kind.',
  schema: { type: 'object', properties: { metadata: { type: 'object' } } },
};

export function allTestDefinitions(): ResourceDefinition[] {
  return [cronTabs, leases, configMaps, pods, namespaces, deployments, clusterWidgets];
}
