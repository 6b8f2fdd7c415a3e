/**
 * core/v1 Node: a machine of the cluster. Its node agent creates it with its status (kube lets a create set
 * status) and keeps the status and its Lease fresh; the node lifecycle controller (modules/nodes) marks it
 * Unknown and taints it when both go silent.
 */
import type { ResourceDefinition, Strategy } from '../../registry/index.js';
import { isPlainObject, type KubeObject } from '../../api/index.js';
import { validateStandardFinalizers } from '../../validation/index.js';
import { listAt, objAt, strAt } from '../values.js';
import { nodeColumns } from './node-columns.js';
import { nodeSchema } from './node-schema.js';
import { validateNode, validateNodeChange, validateNodeUpdate } from './node-validation.js';

/**
 * kube keeps only podCIDRs and derives podCIDR from it on the way out: a lone podCIDR becomes the list, and a
 * podCIDR that disagrees with the list's first entry is replaced by it.
 */
function normalizePodCIDRs(node: KubeObject): void {
  // spec is a Go value: kube always shows it, {} when empty
  if (!isPlainObject(node.spec)) node.spec = {};
  const spec = node.spec as Record<string, unknown>;
  const cidrs = listAt(spec.podCIDRs);
  if (cidrs.length === 0 && strAt(spec.podCIDR)) spec.podCIDRs = [spec.podCIDR];
  else if (cidrs.length > 0) spec.podCIDR = cidrs[0];
}

const configSourceInUse = (node: KubeObject | undefined) => objAt(node?.spec).configSource != null;
const statusConfigInUse = (node: KubeObject) => objAt(node.status).config != null;

// the dynamic kubelet configuration these fields served is gone: only objects that had them keep them
function dropConfig(node: KubeObject, old: KubeObject | undefined): void {
  if (isPlainObject(node.spec) && !configSourceInUse(old)) delete node.spec.configSource;
  if (isPlainObject(node.status) && (!old || !statusConfigInUse(old))) delete node.status.config;
}

export const nodeStrategy: Strategy = {
  defaults: normalizePodCIDRs,
  prepareForCreate: (obj) => dropConfig(obj, undefined),
  prepareForUpdate(obj, old) {
    if (old.status === undefined) delete obj.status;
    else obj.status = structuredClone(old.status);
    if (isPlainObject(obj.spec) && !configSourceInUse(old)) delete obj.spec.configSource;
  },
  validate: (obj) => [
    ...validateStandardFinalizers(obj.metadata.finalizers, 'metadata.finalizers'),
    ...validateNode(obj),
  ],
  validateUpdate: (obj, old) => validateNodeChange(obj, old),
  // kube lets nodes be selected by schedulability (kubectl get nodes --field-selector spec.unschedulable=true)
  selectableFields: (obj) => ({ 'spec.unschedulable': String(objAt(obj.spec).unschedulable === true) }),
};

/** nodes/status: what the node agent and the lifecycle controller write; the spec stays as stored. */
export const nodeStatusStrategy: Strategy = {
  defaults: normalizePodCIDRs,
  prepareForUpdate(obj, old) {
    if (old.spec === undefined) delete obj.spec;
    else obj.spec = structuredClone(old.spec);
    if (isPlainObject(obj.status) && !statusConfigInUse(old)) delete obj.status.config;
  },
  validateUpdate: (obj, old) => validateNodeUpdate(obj, old),
};

export const nodeDefinition: ResourceDefinition = {
  group: '',
  versions: ['v1'],
  storageVersion: 'v1',
  resource: 'nodes',
  singular: 'node',
  kind: 'Node',
  listKind: 'NodeList',
  scope: 'Cluster',
  shortNames: ['no'],
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  subresources: ['status'],
  nameRule: 'dns1123Subdomain',
  allowCreateOnUpdate: false,
  schema: nodeSchema,
  description: nodeSchema.description ?? '',
  printerColumns: nodeColumns,
  strategy: nodeStrategy,
  subresourceStrategies: { status: nodeStatusStrategy },
};
