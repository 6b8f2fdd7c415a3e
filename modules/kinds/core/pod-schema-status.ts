/**
 * The status of core/v1 Pod: conditions, addresses and the states of its containers.
 * Field names, protobuf numbers and markers as kube v1.32 has them; descriptions are ours.
 */
import { message } from '../message-table.js';
import { resourceRequirements } from './pod-schema-containers.js';

export const podCondition = message(
  'PodCondition',
  "One aspect of the pod's state.",
  {
    lastProbeTime: [3, 'time'],
    lastTransitionTime: [4, 'time'],
    message: [6, 'string', 'Human-readable details.'],
    reason: [5, 'string', 'Why the condition last changed, in CamelCase.'],
    status: [2, 'string', 'True, False or Unknown.'],
    type: [
      1,
      'string',
      'PodScheduled, Initialized, ContainersReady, Ready, PodReadyToStartContainers or a readiness gate.',
    ],
  },
  { required: ['type', 'status'] },
);

export const resourceHealth = message(
  'ResourceHealth',
  'Health of one device of a resource.',
  {
    health: [2, 'string', 'Healthy, Unhealthy or Unknown.'],
    resourceID: [1, 'string', 'ID of the device.'],
  },
  { required: ['resourceID'] },
);

export const resourceStatus = message(
  'ResourceStatus',
  'Health of the devices of one resource of a container.',
  {
    name: [1, 'string', 'The resource.'],
    resources: [2, [resourceHealth], 'The devices.', { list: ['resourceID'] }],
  },
  { required: ['name'] },
);

export const containerStateRunning = message('ContainerStateRunning', 'A running container.', {
  startedAt: [1, 'time'],
});

export const containerStateTerminated = message(
  'ContainerStateTerminated',
  'A container that ended.',
  {
    containerID: [7, 'string', 'Runtime ID of the container.'],
    exitCode: [1, 'int32', 'Exit code of the last run.'],
    finishedAt: [6, 'time'],
    message: [4, 'string', 'What the runtime said about the end.'],
    reason: [3, 'string', 'Why the container ended, e.g. Completed, Error or OOMKilled.'],
    signal: [2, 'int32', 'Signal that ended the container.'],
    startedAt: [5, 'time'],
  },
  { required: ['exitCode'] },
);

export const containerStateWaiting = message(
  'ContainerStateWaiting',
  'A container that is not running yet.',
  {
    message: [2, 'string', 'Why it is waiting, in words.'],
    reason: [
      1,
      'string',
      'Why it is waiting, e.g. ContainerCreating, CrashLoopBackOff or CreateContainerError.',
    ],
  },
);

export const containerState = message(
  'ContainerState',
  'State of a container: exactly one of waiting, running or terminated.',
  {
    running: [2, containerStateRunning, '', { ptr: true }],
    terminated: [3, containerStateTerminated, '', { ptr: true }],
    waiting: [1, containerStateWaiting, '', { ptr: true }],
  },
);

export const linuxContainerUser = message(
  'LinuxContainerUser',
  "Identity of a container's first process on Linux.",
  {
    gid: [2, 'int64', 'Primary group ID.'],
    supplementalGroups: [3, ['int64'], 'Supplementary group IDs.', { list: 'atomic' }],
    uid: [1, 'int64', 'User ID.'],
  },
  { required: ['uid', 'gid'] },
);

export const containerUser = message(
  'ContainerUser',
  'Identity a container runs as, as the runtime reports it.',
  {
    linux: [1, linuxContainerUser, '', { ptr: true }],
  },
);

export const volumeMountStatus = message(
  'VolumeMountStatus',
  'State of a volume mount of a container.',
  {
    mountPath: [2, 'string', 'Path of the mount.'],
    name: [1, 'string', 'Name of the volume.'],
    readOnly: [3, 'bool', 'Whether the mount is read-only.'],
    recursiveReadOnly: [4, 'string', 'Disabled or Enabled: how the mount was made read-only.', { ptr: true }],
  },
  { required: ['name', 'mountPath'] },
);

export const containerStatus = message(
  'ContainerStatus',
  'What the kubelet observed of a container.',
  {
    allocatedResources: [10, { map: 'quantity' }, 'Resources the node allocated to the container.'],
    allocatedResourcesStatus: [
      14,
      [resourceStatus],
      'Health of the devices allocated to the container.',
      { list: ['name'], patch: 'merge', key: 'name' },
    ],
    containerID: [8, 'string', 'Runtime ID, <type>://<id>.'],
    image: [6, 'string', 'Image the container runs.'],
    imageID: [7, 'string', 'ID of the image.'],
    lastState: [3, containerState],
    name: [1, 'string', 'Name of the container.'],
    ready: [4, 'bool', 'Whether the container passes its readiness probe.'],
    resources: [11, resourceRequirements, '', { ptr: true }],
    restartCount: [5, 'int32', 'Times the container was restarted.'],
    started: [9, 'bool', 'Whether the container passed its startup probe.', { ptr: true }],
    state: [2, containerState],
    user: [13, containerUser, '', { ptr: true }],
    volumeMounts: [
      12,
      [volumeMountStatus],
      "State of the container's volume mounts.",
      { list: ['mountPath'], patch: 'merge', key: 'mountPath' },
    ],
  },
  { required: ['name', 'ready', 'restartCount', 'image', 'imageID'] },
);

export const hostIP = message(
  'HostIP',
  "An address of the pod's node.",
  {
    ip: [1, 'string', 'The address.'],
  },
  { required: ['ip'] },
);

export const podIP = message(
  'PodIP',
  'An address of the pod.',
  {
    ip: [1, 'string', 'The address.'],
  },
  { required: ['ip'] },
);

export const podResourceClaimStatus = message(
  'PodResourceClaimStatus',
  'The ResourceClaim made for an entry of spec.resourceClaims.',
  {
    name: [1, 'string', 'Name of the entry in spec.resourceClaims.'],
    resourceClaimName: [
      2,
      'string',
      'Name of the ResourceClaim made; unset when none was needed.',
      { ptr: true },
    ],
  },
  { required: ['name'] },
);

export const podStatus = message('PodStatus', "What is known of the pod's state.", {
  conditions: [2, [podCondition], 'Conditions of the pod.', { list: ['type'], patch: 'merge', key: 'type' }],
  containerStatuses: [8, [containerStatus], 'States of the containers.', { list: 'atomic' }],
  ephemeralContainerStatuses: [
    13,
    [containerStatus],
    'States of the ephemeral containers.',
    { list: 'atomic' },
  ],
  hostIP: [5, 'string', "Primary address of the pod's node."],
  hostIPs: [
    16,
    [hostIP],
    "Addresses of the pod's node, one per IP family, the first being hostIP.",
    { list: 'atomic', patch: 'merge', key: 'ip' },
  ],
  initContainerStatuses: [10, [containerStatus], 'States of the init containers.', { list: 'atomic' }],
  message: [3, 'string', 'Why the pod is in its state, in words.'],
  nominatedNodeName: [11, 'string', 'Node that preemption made room on for the pod.'],
  phase: [1, 'string', 'Pending, Running, Succeeded, Failed or Unknown.'],
  podIP: [6, 'string', 'Primary address of the pod.'],
  podIPs: [
    12,
    [podIP],
    'Addresses of the pod, one per IP family, the first being podIP.',
    { list: ['ip'], patch: 'merge', key: 'ip' },
  ],
  qosClass: [9, 'string', 'Quality of service class: Guaranteed, Burstable or BestEffort.'],
  reason: [4, 'string', 'Why the pod is in its state, in CamelCase (e.g. Evicted).'],
  resize: [14, 'string', "State of a resize of the pod's resources."],
  resourceClaimStatuses: [
    15,
    [podResourceClaimStatus],
    'ResourceClaims made for the pod.',
    { list: ['name'], patch: 'merge,retainKeys', key: 'name' },
  ],
  startTime: [7, 'time', '', { ptr: true }],
});
