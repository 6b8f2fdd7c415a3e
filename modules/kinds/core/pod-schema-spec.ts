/**
 * The core/v1 PodSpec and its small parts (DNS, host aliases, pod security context, ...).
 * Field names, protobuf numbers and markers as kube v1.32 has them; descriptions are ours.
 */
import { localObjectReferenceSchema } from '../../api/index.js';
import { message } from '../message-table.js';
import {
  appArmorProfile,
  container,
  ephemeralContainer,
  resourceRequirements,
  seLinuxOptions,
  seccompProfile,
  windowsSecurityContextOptions,
} from './pod-schema-containers.js';
import { affinity, toleration, topologySpreadConstraint } from './pod-schema-scheduling.js';
import { volume } from './pod-schema-volumes.js';

export const podDNSConfigOption = message('PodDNSConfigOption', 'A resolver option.', {
  name: [1, 'string', 'Name of the option.'],
  value: [2, 'string', 'Value of the option.', { ptr: true }],
});

export const podDNSConfig = message('PodDNSConfig', 'DNS settings merged into those the DNS policy gives.', {
  nameservers: [1, ['string'], 'Name server addresses.', { list: 'atomic' }],
  options: [3, [podDNSConfigOption], 'Resolver options.', { list: 'atomic' }],
  searches: [2, ['string'], 'Search domains.', { list: 'atomic' }],
});

export const hostAlias = message(
  'HostAlias',
  "An entry of the pod's hosts file.",
  {
    hostnames: [2, ['string'], 'Host names for the address.', { list: 'atomic' }],
    ip: [1, 'string', 'The address.'],
  },
  { required: ['ip'] },
);

export const podOS = message(
  'PodOS',
  'The operating system of a pod.',
  {
    name: [1, 'string', 'linux or windows.'],
  },
  { required: ['name'] },
);

export const podReadinessGate = message(
  'PodReadinessGate',
  'A pod condition that must be True for the pod to be ready.',
  {
    conditionType: [1, 'string', 'The condition type.'],
  },
  { required: ['conditionType'] },
);

export const podResourceClaim = message(
  'PodResourceClaim',
  'A resource claim the pod uses, named within the pod.',
  {
    name: [1, 'string', 'Name of the claim within the pod.'],
    resourceClaimName: [3, 'string', "An existing ResourceClaim in the pod's namespace.", { ptr: true }],
    resourceClaimTemplateName: [
      4,
      'string',
      'A ResourceClaimTemplate from which a claim is made for this pod.',
      { ptr: true },
    ],
  },
  { required: ['name'] },
);

export const podSchedulingGate = message(
  'PodSchedulingGate',
  'A gate that keeps the pod from being scheduled while present.',
  {
    name: [1, 'string', 'Name of the gate.'],
  },
  { required: ['name'] },
);

export const sysctl = message(
  'Sysctl',
  'A kernel parameter set for the pod.',
  {
    name: [1, 'string', 'Name of the parameter.'],
    value: [2, 'string', 'Value of the parameter.'],
  },
  { required: ['name', 'value'] },
);

export const podSecurityContext = message(
  'PodSecurityContext',
  'Security settings of the pod and defaults for its containers.',
  {
    appArmorProfile: [11, appArmorProfile, '', { ptr: true }],
    fsGroup: [
      5,
      'int64',
      "Group that owns the pod's volumes and is added to every container's groups.",
      { ptr: true },
    ],
    fsGroupChangePolicy: [
      9,
      'string',
      'OnRootMismatch or Always: when volume ownership is changed.',
      { ptr: true },
    ],
    runAsGroup: [6, 'int64', 'Group ID the containers run as by default.', { ptr: true }],
    runAsNonRoot: [3, 'bool', 'Whether containers must run as a user other than root.', { ptr: true }],
    runAsUser: [2, 'int64', 'User ID the containers run as by default.', { ptr: true }],
    seLinuxChangePolicy: [
      13,
      'string',
      'Recursive or MountOption: how SELinux labels reach volumes.',
      { ptr: true },
    ],
    seLinuxOptions: [1, seLinuxOptions, '', { ptr: true }],
    seccompProfile: [10, seccompProfile, '', { ptr: true }],
    supplementalGroups: [
      4,
      ['int64'],
      'Groups added to the first process of every container.',
      { list: 'atomic' },
    ],
    supplementalGroupsPolicy: [
      12,
      'string',
      "Merge (the default) or Strict: whether the image's groups are added.",
      { ptr: true },
    ],
    sysctls: [7, [sysctl], 'Namespaced kernel parameters of the pod.', { list: 'atomic' }],
    windowsOptions: [8, windowsSecurityContextOptions, '', { ptr: true }],
  },
);

export const podSpec = message(
  'PodSpec',
  'What the pod runs and how.',
  {
    activeDeadlineSeconds: [5, 'int64', 'Seconds the pod may run before it is failed.', { ptr: true }],
    affinity: [18, affinity, '', { ptr: true }],
    automountServiceAccountToken: [21, 'bool', 'Whether a service account token is mounted.', { ptr: true }],
    containers: [
      2,
      [container],
      'The containers; at least one.',
      { list: ['name'], patch: 'merge', key: 'name' },
    ],
    dnsConfig: [26, podDNSConfig, '', { ptr: true }],
    dnsPolicy: [6, 'string', 'ClusterFirst (the default), ClusterFirstWithHostNet, Default or None.'],
    enableServiceLinks: [
      30,
      'bool',
      'Whether service environment variables are injected; true by default.',
      { ptr: true },
    ],
    ephemeralContainers: [
      34,
      [ephemeralContainer],
      'Debugging containers added through the ephemeralcontainers subresource.',
      { list: ['name'], patch: 'merge', key: 'name' },
    ],
    hostAliases: [
      23,
      [hostAlias],
      'Extra entries of the hosts file.',
      { list: ['ip'], patch: 'merge', key: 'ip' },
    ],
    hostIPC: [13, 'bool', "Whether the pod uses the host's IPC namespace."],
    hostNetwork: [11, 'bool', "Whether the pod uses the host's network namespace."],
    hostPID: [12, 'bool', "Whether the pod uses the host's PID namespace."],
    hostUsers: [
      37,
      'bool',
      "Whether the pod uses the host's user namespace; true by default.",
      { ptr: true },
    ],
    hostname: [16, 'string', 'Host name of the pod; its name by default.'],
    imagePullSecrets: [
      15,
      [localObjectReferenceSchema],
      'Secrets used to pull the images.',
      { list: ['name'], patch: 'merge', key: 'name' },
    ],
    initContainers: [
      20,
      [container],
      'Containers run in order before the others, each to completion (sidecars excepted).',
      { list: ['name'], patch: 'merge', key: 'name' },
    ],
    nodeName: [10, 'string', 'The node the pod is bound to; set by the scheduler through pods/binding.'],
    nodeSelector: [
      7,
      { map: 'string' },
      'Labels a node must have for the pod to run there.',
      { mapType: 'atomic' },
    ],
    os: [36, podOS, '', { ptr: true }],
    overhead: [32, { map: 'quantity' }, "Resources the pod's runtime class uses beyond its containers."],
    preemptionPolicy: [31, 'string', 'PreemptLowerPriority (the default) or Never.', { ptr: true }],
    priority: [25, 'int32', 'Priority of the pod, from its priority class.', { ptr: true }],
    priorityClassName: [24, 'string', 'Priority class of the pod.'],
    readinessGates: [
      28,
      [podReadinessGate],
      'More conditions that must be True for the pod to be ready.',
      { list: 'atomic' },
    ],
    resourceClaims: [
      39,
      [podResourceClaim],
      "Resource claims the pod's containers may use.",
      { list: ['name'], patch: 'merge,retainKeys', key: 'name' },
    ],
    resources: [40, resourceRequirements, '', { ptr: true }],
    restartPolicy: [3, 'string', 'Always (the default), OnFailure or Never.'],
    runtimeClassName: [29, 'string', 'RuntimeClass the pod runs with.', { ptr: true }],
    schedulerName: [19, 'string', 'Scheduler that places the pod; default-scheduler by default.'],
    schedulingGates: [
      38,
      [podSchedulingGate],
      'Gates that keep the pod unscheduled while any is present; may only be removed.',
      { list: ['name'], patch: 'merge', key: 'name' },
    ],
    securityContext: [14, podSecurityContext, '', { ptr: true }],
    serviceAccount: [9, 'string', 'Deprecated alias of serviceAccountName.'],
    serviceAccountName: [8, 'string', 'Service account the pod runs as.'],
    setHostnameAsFQDN: [
      35,
      'bool',
      'Whether the host name is the fully qualified domain name.',
      { ptr: true },
    ],
    shareProcessNamespace: [27, 'bool', 'Whether the containers share one PID namespace.', { ptr: true }],
    subdomain: [
      17,
      'string',
      "Subdomain of the pod's host name: <hostname>.<subdomain>.<namespace>.svc.<cluster domain>.",
    ],
    terminationGracePeriodSeconds: [
      4,
      'int64',
      'Seconds the pod is given to stop after a delete; 30 by default.',
      { ptr: true },
    ],
    tolerations: [22, [toleration], 'Taints the pod tolerates.', { list: 'atomic' }],
    topologySpreadConstraints: [
      33,
      [topologySpreadConstraint],
      'How the pod is spread with its peers.',
      { list: ['topologyKey', 'whenUnsatisfiable'], patch: 'merge', key: 'topologyKey' },
    ],
    volumes: [
      1,
      [volume],
      'Volumes the containers may mount.',
      { list: ['name'], patch: 'merge,retainKeys', key: 'name' },
    ],
  },
  { required: ['containers'] },
);
