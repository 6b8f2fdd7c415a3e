/** kubectl get nodes: kube's node printer (Status, Roles, Version; wide: addresses, OS, kernel, runtime). */
import type { PrinterColumn } from '../../registry/index.js';
import type { KubeObject } from '../../api/index.js';
import { ageColumn, nameColumn } from '../columns.js';
import { listAt, objAt, strAt } from '../values.js';

const ROLE_PREFIX = 'node-role.kubernetes.io/';
const ROLE_LABEL = 'kubernetes.io/role';

const status = (node: KubeObject) => objAt(node.status);
const nodeInfo = (node: KubeObject) => objAt(status(node).nodeInfo);

/** "Ready", "NotReady" (False and Unknown alike), "Unknown" without a Ready condition; ",SchedulingDisabled" when cordoned. */
export function nodeStatusText(node: KubeObject): string {
  const ready = listAt(status(node).conditions)
    .map(objAt)
    .filter((c) => c.type === 'Ready')
    .pop();
  const parts = [ready ? (ready.status === 'True' ? 'Ready' : 'NotReady') : 'Unknown'];
  if (objAt(node.spec).unschedulable === true) parts.push('SchedulingDisabled');
  return parts.join(',');
}

/** Roles from `node-role.kubernetes.io/<role>` label keys and the older `kubernetes.io/role=<role>` label, sorted. */
export function nodeRoles(node: KubeObject): string {
  const roles = new Set<string>();
  for (const [key, value] of Object.entries(objAt(node.metadata.labels))) {
    if (key.startsWith(ROLE_PREFIX)) {
      const role = key.slice(ROLE_PREFIX.length);
      if (role) roles.add(role);
    } else if (key === ROLE_LABEL && strAt(value)) roles.add(strAt(value));
  }
  return roles.size > 0 ? [...roles].sort().join(',') : '<none>';
}

/** The first address of a type, "<none>" without one. */
function address(node: KubeObject, type: string): string {
  const found = listAt(status(node).addresses)
    .map(objAt)
    .find((a) => a.type === type);
  return found ? strAt(found.address) : '<none>';
}

const orUnknown = (text: string) => text || '<unknown>';

const infoColumn = (name: string, key: string, description: string): PrinterColumn => ({
  name,
  type: 'string',
  description,
  priority: 1,
  jsonPath: `.status.nodeInfo.${key}`,
  cell: (node) => orUnknown(strAt(nodeInfo(node)[key])),
});

export const nodeColumns: PrinterColumn[] = [
  nameColumn,
  {
    name: 'Status',
    type: 'string',
    description: 'The status of the node',
    priority: 0,
    jsonPath: '.status.conditions',
    cell: nodeStatusText,
  },
  {
    name: 'Roles',
    type: 'string',
    description: 'The roles of the node',
    priority: 0,
    jsonPath: '.metadata.labels',
    cell: nodeRoles,
  },
  ageColumn,
  {
    name: 'Version',
    type: 'string',
    description: 'Version of the node agent.',
    priority: 0,
    jsonPath: '.status.nodeInfo.kubeletVersion',
    cell: (node) => strAt(nodeInfo(node).kubeletVersion),
  },
  {
    name: 'Internal-IP',
    type: 'string',
    description: 'The first InternalIP address of the node.',
    priority: 1,
    jsonPath: '.status.addresses',
    cell: (node) => address(node, 'InternalIP'),
  },
  {
    name: 'External-IP',
    type: 'string',
    description: 'The first ExternalIP address of the node.',
    priority: 1,
    jsonPath: '.status.addresses',
    cell: (node) => address(node, 'ExternalIP'),
  },
  infoColumn('OS-Image', 'osImage', 'Name of the operating system image of the node.'),
  infoColumn('Kernel-Version', 'kernelVersion', 'Kernel version of the node.'),
  infoColumn(
    'Container-Runtime',
    'containerRuntimeVersion',
    'Container runtime of the node and its version.',
  ),
];
