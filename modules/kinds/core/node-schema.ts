/** The core/v1 Node schema: kube v1.32's fields, protobuf numbers and list markers. */
import type { Schema } from '../../registry/index.js';
import { bool, field, int32, int64, kindSchema, pointer, str, timeSchema } from '../../api/index.js';
import { quantitySchema } from '../message-table.js';

const coreV1 = 'io.k8s.api.core.v1';

const resourceList = (n: number, description: string): Schema =>
  field(n, { type: 'object', additionalProperties: quantitySchema }, description);

const atomicStrings = (n: number, description: string): Schema =>
  field(n, { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'atomic' }, description);

export const taintSchema: Schema = {
  type: 'object',
  description: 'Keeps pods that do not tolerate it off the node (or, with NoExecute, drives them away).',
  properties: {
    effect: str(
      3,
      'What happens to pods that do not tolerate the taint: NoSchedule, PreferNoSchedule or NoExecute.',
    ),
    key: str(1, 'The key of the taint, a qualified name.'),
    timeAdded: pointer(field(4, timeSchema)),
    value: str(2, 'The value of the taint, a label value.'),
  },
  required: ['key', 'effect'],
  'x-pgkube-ref': `${coreV1}.Taint`,
};

const configMapNodeConfigSourceSchema: Schema = {
  type: 'object',
  description: 'A ConfigMap holding a kubelet configuration (the removed dynamic kubelet configuration).',
  properties: {
    kubeletConfigKey: str(5, 'The key of the ConfigMap that holds the configuration.'),
    name: str(2, 'Name of the ConfigMap.'),
    namespace: str(1, 'Namespace of the ConfigMap.'),
    resourceVersion: str(4, 'ResourceVersion of the ConfigMap; only in status.'),
    uid: str(3, 'UID of the ConfigMap; only in status.'),
  },
  required: ['namespace', 'name', 'kubeletConfigKey'],
  'x-pgkube-ref': `${coreV1}.ConfigMapNodeConfigSource`,
};

const nodeConfigSourceSchema: Schema = {
  type: 'object',
  description:
    'Deprecated: where a node read its configuration from (dynamic kubelet configuration, removed).',
  properties: {
    configMap: pointer(field(2, configMapNodeConfigSourceSchema)),
  },
  'x-pgkube-ref': `${coreV1}.NodeConfigSource`,
};

const nodeSpecSchema: Schema = {
  type: 'object',
  description: 'How the node is set up: its pod address ranges, provider id, schedulability and taints.',
  properties: {
    configSource: pointer(field(6, nodeConfigSourceSchema)),
    externalID: str(2, 'Deprecated: an id of the node in an external machine database.'),
    podCIDR: str(1, 'The pod address range of the node; the first of podCIDRs.'),
    podCIDRs: field(
      7,
      {
        type: 'array',
        items: { type: 'string' },
        'x-kubernetes-list-type': 'set',
        'x-kubernetes-patch-strategy': 'merge',
      },
      'The pod address ranges of the node, at most one per IP family; the first equals podCIDR.',
    ),
    providerID: str(3, 'Id of the node at its cloud provider: <provider>://<id>.'),
    taints: field(5, {
      type: 'array',
      description: 'The taints of the node.',
      items: taintSchema,
      'x-kubernetes-list-type': 'atomic',
    }),
    unschedulable: bool(4, 'When true, no new pods are placed on the node (kubectl cordon).'),
  },
  'x-pgkube-ref': `${coreV1}.NodeSpec`,
};

const nodeConditionSchema: Schema = {
  type: 'object',
  description: 'One aspect of the node’s health, as its agent or the node lifecycle controller saw it.',
  properties: {
    lastHeartbeatTime: field(3, timeSchema),
    lastTransitionTime: field(4, timeSchema),
    message: str(6, 'Details of the last transition, for people.'),
    reason: str(5, 'Why the condition last changed, in CamelCase.'),
    status: str(2, 'True, False or Unknown.'),
    type: str(1, 'Ready, MemoryPressure, DiskPressure, PIDPressure or NetworkUnavailable.'),
  },
  required: ['type', 'status'],
  'x-pgkube-ref': `${coreV1}.NodeCondition`,
};

const nodeAddressSchema: Schema = {
  type: 'object',
  description: 'An address the node is reachable at.',
  properties: {
    address: str(2, 'The address.'),
    type: str(1, 'Hostname, InternalIP, ExternalIP, InternalDNS or ExternalDNS.'),
  },
  required: ['type', 'address'],
  'x-pgkube-ref': `${coreV1}.NodeAddress`,
};

const daemonEndpointSchema: Schema = {
  type: 'object',
  description: 'A port a daemon on the node listens on.',
  properties: {
    Port: int32(1, 'The port number.'),
  },
  required: ['Port'],
  'x-pgkube-ref': `${coreV1}.DaemonEndpoint`,
};

const nodeDaemonEndpointsSchema: Schema = {
  type: 'object',
  description: 'Ports the daemons on the node listen on.',
  properties: {
    kubeletEndpoint: field(1, daemonEndpointSchema),
  },
  'x-pgkube-ref': `${coreV1}.NodeDaemonEndpoints`,
};

const nodeSystemInfoSchema: Schema = {
  type: 'object',
  description: 'What the node runs: machine ids, operating system, kernel and the versions of its agents.',
  properties: {
    architecture: str(10, 'CPU architecture reported by the node.'),
    bootID: str(3, 'Id of the current boot.'),
    containerRuntimeVersion: str(6, 'Container runtime and version, e.g. containerd://1.7.0.'),
    kernelVersion: str(4, 'Kernel version (uname -r).'),
    kubeProxyVersion: str(8, 'Deprecated: the version of the node proxy.'),
    kubeletVersion: str(7, 'Version of the node agent.'),
    machineID: str(1, 'Machine id of the host (/etc/machine-id).'),
    operatingSystem: str(9, 'Operating system reported by the node.'),
    osImage: str(5, 'Name of the operating system image (from /etc/os-release).'),
    systemUUID: str(2, 'System UUID of the host.'),
  },
  required: [
    'machineID',
    'systemUUID',
    'bootID',
    'kernelVersion',
    'osImage',
    'containerRuntimeVersion',
    'kubeletVersion',
    'kubeProxyVersion',
    'operatingSystem',
    'architecture',
  ],
  'x-pgkube-ref': `${coreV1}.NodeSystemInfo`,
};

const containerImageSchema: Schema = {
  type: 'object',
  description: 'A container image present on the node.',
  properties: {
    names: atomicStrings(1, 'Names the image is known by.'),
    sizeBytes: int64(2, 'Size of the image in bytes.'),
  },
  'x-pgkube-ref': `${coreV1}.ContainerImage`,
};

const attachedVolumeSchema: Schema = {
  type: 'object',
  description: 'A volume attached to the node.',
  properties: {
    devicePath: str(2, 'Where the volume is available on the node.'),
    name: str(1, 'Name of the attached volume.'),
  },
  required: ['name', 'devicePath'],
  'x-pgkube-ref': `${coreV1}.AttachedVolume`,
};

const nodeConfigStatusSchema: Schema = {
  type: 'object',
  description: 'Deprecated: the state of the dynamic kubelet configuration (removed).',
  properties: {
    active: pointer(field(2, nodeConfigSourceSchema)),
    assigned: pointer(field(1, nodeConfigSourceSchema)),
    error: str(4, 'What went wrong applying the configuration.'),
    lastKnownGood: pointer(field(3, nodeConfigSourceSchema)),
  },
  'x-pgkube-ref': `${coreV1}.NodeConfigStatus`,
};

const nodeRuntimeHandlerSchema: Schema = {
  type: 'object',
  description: 'A runtime handler of the node’s container runtime.',
  properties: {
    features: pointer(
      field(2, {
        type: 'object',
        description: 'What the runtime handler supports.',
        properties: {
          recursiveReadOnlyMounts: pointer(bool(1, 'Whether recursive read-only mounts are supported.')),
          userNamespaces: pointer(bool(2, 'Whether user namespaces are supported.')),
        },
        'x-pgkube-ref': `${coreV1}.NodeRuntimeHandlerFeatures`,
      }),
    ),
    name: str(1, 'Name of the handler; empty for the default one.'),
  },
  'x-pgkube-ref': `${coreV1}.NodeRuntimeHandler`,
};

const nodeStatusSchema: Schema = {
  type: 'object',
  description: 'What the node reports about itself, and what the node lifecycle controller concluded.',
  properties: {
    addresses: field(5, {
      type: 'array',
      description: 'Addresses the node is reachable at.',
      items: nodeAddressSchema,
      'x-kubernetes-list-map-keys': ['type'],
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-patch-merge-key': 'type',
      'x-kubernetes-patch-strategy': 'merge',
    }),
    allocatable: resourceList(2, 'Resources available to pods: capacity less what the system keeps.'),
    capacity: resourceList(1, 'All the resources of the node: cpu, memory, pods, ...'),
    conditions: field(4, {
      type: 'array',
      description: 'The current conditions of the node.',
      items: nodeConditionSchema,
      'x-kubernetes-list-map-keys': ['type'],
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-patch-merge-key': 'type',
      'x-kubernetes-patch-strategy': 'merge',
    }),
    config: pointer(field(11, nodeConfigStatusSchema)),
    daemonEndpoints: field(6, nodeDaemonEndpointsSchema),
    features: pointer(
      field(13, {
        type: 'object',
        description: 'Features of the node agent.',
        properties: {
          supplementalGroupsPolicy: pointer(
            bool(1, 'Whether the node supports a pod’s supplementalGroupsPolicy.'),
          ),
        },
        'x-pgkube-ref': `${coreV1}.NodeFeatures`,
      }),
    ),
    images: field(8, {
      type: 'array',
      description: 'Container images on the node.',
      items: containerImageSchema,
      'x-kubernetes-list-type': 'atomic',
    }),
    nodeInfo: field(7, nodeSystemInfoSchema),
    phase: str(3, 'Deprecated and no longer set: Pending, Running or Terminated.'),
    runtimeHandlers: field(12, {
      type: 'array',
      description: 'The runtime handlers of the node’s container runtime.',
      items: nodeRuntimeHandlerSchema,
      'x-kubernetes-list-type': 'atomic',
    }),
    volumesAttached: field(10, {
      type: 'array',
      description: 'Volumes attached to the node.',
      items: attachedVolumeSchema,
      'x-kubernetes-list-type': 'atomic',
    }),
    volumesInUse: atomicStrings(9, 'Attached volumes in use (mounted) on the node.'),
  },
  'x-pgkube-ref': `${coreV1}.NodeStatus`,
};

export const nodeSchema = kindSchema({
  description: 'A worker machine of the cluster, as its node agent registered it.',
  properties: {
    spec: field(2, nodeSpecSchema),
    status: field(3, nodeStatusSchema),
  },
});
