/**
 * core/v1 Service, served as data: kube v1.32's schema, defaults and validation, but no IP or node-port
 * allocator, no kube-proxy and no endpoints controller. A service keeps the clusterIP its client gave it: an
 * empty one stays unset (kube would allocate one), "None" makes it headless. Readers resolve a service
 * through its Endpoints / EndpointSlices, which clients write themselves.
 */
import type { ResourceDefinition, Strategy } from '../../registry/index.js';
import { isPlainObject, type FieldError, type KubeObject } from '../../api/index.js';
import { validateStandardFinalizers } from '../../validation/index.js';
import { ageColumn, nameColumn } from '../columns.js';
import { serviceSchema } from './service-schema.js';
import { serviceColumns, serviceSelectorColumn } from './service-columns.js';
import { defaultService, fillCreatedService, fillUpdatedService } from './service-defaults.js';
import { validateService, validateServiceStatus, validateServiceUpdate } from './service-validation.js';

const finalizers = (obj: KubeObject): FieldError[] =>
  validateStandardFinalizers(obj.metadata.finalizers, 'metadata.finalizers');

export const serviceStrategy: Strategy = {
  defaults: (obj) => defaultService(obj),
  prepareForCreate(obj) {
    obj.status = { loadBalancer: {} };
    fillCreatedService(obj);
  },
  prepareForUpdate(obj, old) {
    obj.status = structuredClone(old.status ?? { loadBalancer: {} });
    fillUpdatedService(obj, old);
  },
  validate: (obj) => [...finalizers(obj), ...validateService(obj)],
  validateUpdate: (obj, old) => validateServiceUpdate(obj, old),
  // kube lets services be selected by their address and type
  selectableFields(obj) {
    const spec = isPlainObject(obj.spec) ? obj.spec : {};
    return {
      'spec.clusterIP': typeof spec.clusterIP === 'string' ? spec.clusterIP : '',
      'spec.type': typeof spec.type === 'string' ? spec.type : '',
    };
  },
};

/** services/status: only status changes (the load balancer's ingress points, conditions). */
export const serviceStatusStrategy: Strategy = {
  defaults: (obj) => defaultService(obj),
  prepareForUpdate(obj, old) {
    if (old.spec === undefined) delete obj.spec;
    else obj.spec = structuredClone(old.spec);
    if (!isPlainObject(obj.status)) obj.status = { loadBalancer: {} };
  },
  validateUpdate: (obj) => validateServiceStatus(obj),
};

export const serviceDefinition: ResourceDefinition = {
  group: '',
  versions: ['v1'],
  storageVersion: 'v1',
  resource: 'services',
  singular: 'service',
  kind: 'Service',
  listKind: 'ServiceList',
  scope: 'Namespaced',
  shortNames: ['svc'],
  categories: ['all'],
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  subresources: ['status'],
  nameRule: 'dns1035Label',
  allowCreateOnUpdate: true,
  schema: serviceSchema,
  description: serviceSchema.description ?? '',
  printerColumns: [nameColumn, ...serviceColumns, ageColumn, serviceSelectorColumn],
  strategy: serviceStrategy,
  subresourceStrategies: { status: serviceStatusStrategy },
};
