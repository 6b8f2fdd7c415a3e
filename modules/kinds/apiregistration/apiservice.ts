/**
 * apiregistration.k8s.io/v1 APIService: which server serves a group/version. Without `spec.service` this
 * server serves it itself (a "local" APIService, always available); with one, the aggregator proxies the
 * group/version to that Service. Cluster-scoped; its status (the Available condition) is written through
 * apiservices/status by the controllers.
 */
import type { ResourceDefinition, Schema, Strategy } from '../../registry/index.js';
import { isPlainObject, nowTimestamp, type KubeObject } from '../../api/index.js';
import { bool, field, int32, kindSchema, pointer, str, timeSchema } from '../../api/index.js';
import { ageColumn, nameColumn } from '../columns.js';
import {
  apiServiceCondition,
  AVAILABLE_CONDITION,
  localAvailableCondition,
  setApiServiceCondition,
  type APIService,
} from './apiservice-types.js';
import { validateApiService, validateApiServiceStatus } from './apiservice-validation.js';

const pkg = 'io.k8s.kube-aggregator.pkg.apis.apiregistration.v1';
const DEFAULT_PORT = 443;

const serviceReferenceSchema: Schema = {
  type: 'object',
  description: 'The Service in front of the server that hosts the group/version.',
  properties: {
    name: str(2, 'Name of the Service.'),
    namespace: str(1, 'Namespace of the Service.'),
    port: pointer(int32(3, 'HTTPS port of the Service the requests go to; 443 when unset.')),
  },
  'x-pgkube-ref': `${pkg}.ServiceReference`,
};

const conditionSchema: Schema = {
  type: 'object',
  description: 'One aspect of the APIService state.',
  properties: {
    lastTransitionTime: field(3, timeSchema),
    message: str(5, 'Human-readable details about the last transition.'),
    reason: str(4, 'One-word CamelCase reason for the last transition.'),
    status: str(2, 'Status of the condition: True, False or Unknown.'),
    type: str(1, 'Type of the condition; the aggregator routes only to APIServices that are Available.'),
  },
  required: ['type', 'status'],
  'x-pgkube-ref': `${pkg}.APIServiceCondition`,
};

const schema = kindSchema({
  description: 'Registers the server of one API group/version; its name must be "<version>.<group>".',
  properties: {
    spec: field(2, {
      type: 'object',
      description: 'Where the group/version is served and how it ranks among the others.',
      properties: {
        caBundle: field(
          5,
          { type: 'string', format: 'byte' },
          'PEM CA bundle that signed the serving certificate of the server; system roots when unset.',
        ),
        group: str(2, 'The API group the server hosts.'),
        groupPriorityMinimum: int32(
          7,
          'The least priority of the group, highest first; ties are broken by name. Kubernetes groups use ' +
            'about 18000, custom resources 1000.',
        ),
        insecureSkipTLSVerify: bool(4, 'Skip verifying the serving certificate of the server (discouraged).'),
        service: pointer(field(1, serviceReferenceSchema)),
        version: str(3, 'The API version the server hosts, e.g. "v1".'),
        versionPriority: int32(
          8,
          'The order of this version within its group, highest first; equal priorities sort by ' +
            'Kubernetes version order (v10, v2, v1, v11beta2, ...).',
        ),
      },
      required: ['groupPriorityMinimum', 'versionPriority'],
      'x-pgkube-ref': `${pkg}.APIServiceSpec`,
    }),
    status: field(3, {
      type: 'object',
      description: 'What the server observed about the APIService.',
      properties: {
        conditions: field(1, {
          type: 'array',
          description: 'The current observations of the APIService state.',
          items: conditionSchema,
          'x-kubernetes-list-map-keys': ['type'],
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-patch-merge-key': 'type',
          'x-kubernetes-patch-strategy': 'merge',
        }),
      },
      'x-pgkube-ref': `${pkg}.APIServiceStatus`,
    }),
  },
});

const keepOld = (obj: KubeObject, old: KubeObject, key: string): void => {
  if (old[key] === undefined) delete obj[key];
  else obj[key] = structuredClone(old[key]);
};

/** Metadata a status write may not change (kube's status strategy resets them to the stored values). */
const statusOwnedMetadata = ['labels', 'annotations', 'finalizers', 'ownerReferences'] as const;

export const apiServiceStrategy: Strategy = {
  defaults(obj: KubeObject) {
    const spec = obj.spec;
    if (isPlainObject(spec) && isPlainObject(spec.service) && spec.service.port == null)
      spec.service.port = DEFAULT_PORT;
  },
  // conditions belong to the controllers, but a local APIService is available from its creation on
  prepareForCreate(obj: KubeObject) {
    const apiService = obj as APIService;
    apiService.status = {};
    if (!isPlainObject(obj.spec) || !isPlainObject(obj.spec.service))
      setApiServiceCondition(apiService, localAvailableCondition(nowTimestamp()));
  },
  prepareForUpdate(obj: KubeObject, old: KubeObject) {
    keepOld(obj, old, 'status');
  },
  validate: (obj: KubeObject) => validateApiService(obj as APIService),
};

/** apiservices/status: only status changes. */
export const apiServiceStatusStrategy: Strategy = {
  defaults: apiServiceStrategy.defaults,
  prepareForUpdate(obj: KubeObject, old: KubeObject) {
    keepOld(obj, old, 'spec');
    for (const key of statusOwnedMetadata) {
      if (old.metadata[key] === undefined) delete obj.metadata[key];
      else (obj.metadata as Record<string, unknown>)[key] = structuredClone(old.metadata[key]);
    }
  },
  validateUpdate: (obj: KubeObject) => validateApiServiceStatus(obj as APIService),
};

/** kube-aggregator's table: Local or namespace/name, and the Available status with its reason when not True. */
export function serviceCell(obj: KubeObject): string {
  const service = isPlainObject(obj.spec) ? obj.spec.service : undefined;
  if (!isPlainObject(service)) return 'Local';
  return `${String(service.namespace ?? '')}/${String(service.name ?? '')}`;
}

export function availableCell(obj: KubeObject): string {
  const condition = apiServiceCondition(obj as APIService, AVAILABLE_CONDITION);
  if (!condition) return 'Unknown';
  const status = String(condition.status ?? '');
  if (status === 'True' || !condition.reason) return status;
  return `${status} (${condition.reason})`;
}

export const apiServiceDefinition: ResourceDefinition = {
  group: 'apiregistration.k8s.io',
  versions: ['v1'],
  storageVersion: 'v1',
  resource: 'apiservices',
  singular: 'apiservice',
  kind: 'APIService',
  listKind: 'APIServiceList',
  scope: 'Cluster',
  categories: ['api-extensions'],
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  subresources: ['status'],
  nameRule: 'pathSegment',
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: false,
  schema,
  description: schema.description ?? '',
  printerColumns: [
    nameColumn,
    {
      name: 'Service',
      type: 'string',
      description: 'The reference to the service that hosts this API endpoint.',
      priority: 0,
      jsonPath: '.spec.service',
      cell: serviceCell,
    },
    {
      name: 'Available',
      type: 'string',
      description: 'Whether this service is available.',
      priority: 0,
      jsonPath: '.status.conditions',
      cell: availableCell,
    },
    ageColumn,
  ],
  strategy: apiServiceStrategy,
  subresourceStrategies: { status: apiServiceStatusStrategy },
};
