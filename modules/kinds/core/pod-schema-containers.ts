/**
 * Containers of core/v1 Pod: ports, environment, probes, lifecycle hooks, resources, security.
 * Field names, protobuf numbers and markers as kube v1.32 has them; descriptions are ours.
 */
import { message, embedded, type Row } from '../message-table.js';

export const configMapKeySelector = message(
  'ConfigMapKeySelector',
  'One key of a ConfigMap.',
  {
    key: [2, 'string', 'The key to take.'],
    name: [1, 'string', 'Name of the ConfigMap.', { embed: 1 }],
    optional: [3, 'bool', 'Whether the ConfigMap or its key may be missing.', { ptr: true }],
  },
  { required: ['key'], mapType: 'atomic' },
);

export const objectFieldSelector = message(
  'ObjectFieldSelector',
  'A field of the pod, for the downward API.',
  {
    apiVersion: [1, 'string', 'Version of the schema the path is written in; "v1" by default.'],
    fieldPath: [2, 'string', 'Path of the field, e.g. metadata.name or status.podIP.'],
  },
  { required: ['fieldPath'], mapType: 'atomic' },
);

export const resourceFieldSelector = message(
  'ResourceFieldSelector',
  "A container's resource request or limit, for the downward API.",
  {
    containerName: [1, 'string', 'The container; required for volumes, optional for environment variables.'],
    divisor: [3, 'quantity'],
    resource: [2, 'string', 'The resource, e.g. limits.cpu or requests.memory.'],
  },
  { required: ['resource'], mapType: 'atomic' },
);

export const secretKeySelector = message(
  'SecretKeySelector',
  'One key of a Secret.',
  {
    key: [2, 'string', 'The key to take.'],
    name: [1, 'string', 'Name of the Secret.', { embed: 1 }],
    optional: [3, 'bool', 'Whether the Secret or its key may be missing.', { ptr: true }],
  },
  { required: ['key'], mapType: 'atomic' },
);

export const envVarSource = message('EnvVarSource', "Where an environment variable's value comes from.", {
  configMapKeyRef: [3, configMapKeySelector, '', { ptr: true }],
  fieldRef: [1, objectFieldSelector, '', { ptr: true }],
  resourceFieldRef: [2, resourceFieldSelector, '', { ptr: true }],
  secretKeyRef: [4, secretKeySelector, '', { ptr: true }],
});

export const envVar = message(
  'EnvVar',
  'An environment variable of a container.',
  {
    name: [1, 'string', 'Name of the variable.'],
    value: [2, 'string', 'Value; $(VAR) references to earlier variables are expanded, $$ escapes.'],
    valueFrom: [3, envVarSource, '', { ptr: true }],
  },
  { required: ['name'] },
);

export const configMapEnvSource = message(
  'ConfigMapEnvSource',
  'A ConfigMap whose keys become environment variables.',
  {
    name: [1, 'string', 'Name of the ConfigMap.', { embed: 1 }],
    optional: [2, 'bool', 'Whether the ConfigMap may be missing.', { ptr: true }],
  },
);

export const secretEnvSource = message(
  'SecretEnvSource',
  'A Secret whose keys become environment variables.',
  {
    name: [1, 'string', 'Name of the Secret.', { embed: 1 }],
    optional: [2, 'bool', 'Whether the Secret may be missing.', { ptr: true }],
  },
);

export const envFromSource = message(
  'EnvFromSource',
  'A ConfigMap or Secret whose keys all become environment variables.',
  {
    configMapRef: [2, configMapEnvSource, '', { ptr: true }],
    prefix: [1, 'string', 'Prefix added to every variable name.'],
    secretRef: [3, secretEnvSource, '', { ptr: true }],
  },
);

export const execAction = message('ExecAction', 'A command run inside the container.', {
  command: [
    1,
    ['string'],
    'Command and arguments; not run in a shell. Exit status 0 means healthy.',
    { list: 'atomic' },
  ],
});

export const httpHeader = message(
  'HTTPHeader',
  'A header of an HTTP probe.',
  {
    name: [1, 'string', 'Header name.'],
    value: [2, 'string', 'Header value.'],
  },
  { required: ['name', 'value'] },
);

export const httpGetAction = message(
  'HTTPGetAction',
  'An HTTP GET request.',
  {
    host: [3, 'string', 'Host to connect to; the pod IP by default.'],
    httpHeaders: [5, [httpHeader], 'Headers to send.', { list: 'atomic' }],
    path: [1, 'string', 'Path to request.'],
    port: [2, 'intOrString'],
    scheme: [4, 'string', 'HTTP (the default) or HTTPS.'],
  },
  { required: ['port'] },
);

export const sleepAction = message(
  'SleepAction',
  'A pause.',
  {
    seconds: [1, 'int64', 'Seconds to sleep.'],
  },
  { required: ['seconds'] },
);

export const tcpSocketAction = message(
  'TCPSocketAction',
  'A TCP connection attempt.',
  {
    host: [2, 'string', 'Host to connect to; the pod IP by default.'],
    port: [1, 'intOrString'],
  },
  { required: ['port'] },
);

export const lifecycleHandler = message(
  'LifecycleHandler',
  "An action run at a point of a container's life: exactly one of exec, httpGet, sleep or tcpSocket.",
  {
    exec: [1, execAction, '', { ptr: true }],
    httpGet: [2, httpGetAction, '', { ptr: true }],
    sleep: [4, sleepAction, '', { ptr: true }],
    tcpSocket: [3, tcpSocketAction, '', { ptr: true }],
  },
);

export const lifecycle = message(
  'Lifecycle',
  'Actions the kubelet runs after a container starts and before it stops.',
  {
    postStart: [1, lifecycleHandler, '', { ptr: true }],
    preStop: [2, lifecycleHandler, '', { ptr: true }],
  },
);

export const grpcAction = message(
  'GRPCAction',
  'A gRPC health check.',
  {
    port: [1, 'int32', 'Port of the gRPC service, 1 to 65535.'],
    service: [
      2,
      'string',
      "Service name sent in the HealthCheckRequest; empty for the server's own health.",
      { ptr: true },
    ],
  },
  { required: ['port'] },
);

export const probe = message(
  'Probe',
  'A periodic check of a container: an action, its timing and thresholds.',
  {
    exec: [1, execAction, '', { ptr: true, embed: 1 }],
    failureThreshold: [6, 'int32', 'Consecutive failures that make the probe fail; 3 by default.'],
    grpc: [4, grpcAction, '', { ptr: true, embed: 1 }],
    httpGet: [2, httpGetAction, '', { ptr: true, embed: 1 }],
    initialDelaySeconds: [2, 'int32', 'Seconds after the container starts before the first probe.'],
    periodSeconds: [4, 'int32', 'Seconds between probes; 10 by default.'],
    successThreshold: [
      5,
      'int32',
      'Consecutive successes that make the probe pass after a failure; 1 by default, and 1 for liveness and startup.',
    ],
    tcpSocket: [3, tcpSocketAction, '', { ptr: true, embed: 1 }],
    terminationGracePeriodSeconds: [
      7,
      'int64',
      "Grace period for a container killed because this probe failed; overrides the pod's.",
      { ptr: true },
    ],
    timeoutSeconds: [3, 'int32', 'Seconds before a probe times out; 1 by default.'],
  },
);

export const containerPort = message(
  'ContainerPort',
  'A network port of a container.',
  {
    containerPort: [3, 'int32', "Port number on the pod's IP address, 1 to 65535."],
    hostIP: [5, 'string', 'Host address the host port binds to.'],
    hostPort: [2, 'int32', 'Port number on the host; most pods need none.'],
    name: [
      1,
      'string',
      'Name of the port (an IANA service name), unique in the pod; services may refer to it.',
    ],
    protocol: [4, 'string', 'TCP (the default), UDP or SCTP.', { default: 'TCP' }],
  },
  { required: ['containerPort'] },
);

export const containerResizePolicy = message(
  'ContainerResizePolicy',
  'How a container is resized for one resource.',
  {
    resourceName: [1, 'string', 'The resource: cpu or memory.'],
    restartPolicy: [2, 'string', 'NotRequired (the default) or RestartContainer.'],
  },
  { required: ['resourceName', 'restartPolicy'] },
);

export const resourceClaim = message(
  'ResourceClaim',
  "A reference to one of the pod's resource claims.",
  {
    name: [1, 'string', "Name of an entry of the pod's spec.resourceClaims."],
    request: [2, 'string', 'The request of the claim to use; empty for all of them.'],
  },
  { required: ['name'] },
);

export const resourceRequirements = message(
  'ResourceRequirements',
  'Compute resources a container asks for (requests) and may not exceed (limits).',
  {
    claims: [3, [resourceClaim], 'Resource claims of the pod this container uses.', { list: ['name'] }],
    limits: [1, { map: 'quantity' }, 'Most of each resource the container may use.'],
    requests: [2, { map: 'quantity' }, 'Least of each resource the container needs; the limits when unset.'],
  },
);

export const appArmorProfile = message(
  'AppArmorProfile',
  'The AppArmor profile of a pod or container.',
  {
    localhostProfile: [
      2,
      'string',
      'Name of a profile loaded on the node; only with type Localhost.',
      { ptr: true },
    ],
    type: [1, 'string', 'Localhost, RuntimeDefault or Unconfined.'],
  },
  { required: ['type'] },
);

export const capabilities = message(
  'Capabilities',
  'Linux capabilities added to or dropped from a container.',
  {
    add: [1, ['string'], 'Capabilities to add.', { list: 'atomic' }],
    drop: [2, ['string'], 'Capabilities to drop.', { list: 'atomic' }],
  },
);

export const seLinuxOptions = message('SELinuxOptions', 'SELinux labels of a pod or container.', {
  level: [4, 'string', 'The SELinux level label.'],
  role: [2, 'string', 'The SELinux role label.'],
  type: [3, 'string', 'The SELinux type label.'],
  user: [1, 'string', 'The SELinux user label.'],
});

export const seccompProfile = message(
  'SeccompProfile',
  'The seccomp profile of a pod or container: exactly one source.',
  {
    localhostProfile: [
      2,
      'string',
      "Path of a profile file under the kubelet's seccomp directory; set with type Localhost only, and required there.",
      { ptr: true },
    ],
    type: [
      1,
      'string',
      "Localhost (a file on the node), RuntimeDefault (the runtime's profile) or Unconfined (none).",
    ],
  },
  { required: ['type'] },
);

export const windowsSecurityContextOptions = message(
  'WindowsSecurityContextOptions',
  'Windows-specific security settings.',
  {
    gmsaCredentialSpec: [
      2,
      'string',
      'Contents of the GMSA credential spec named by gmsaCredentialSpecName.',
      { ptr: true },
    ],
    gmsaCredentialSpecName: [1, 'string', 'Name of the GMSA credential spec to use.', { ptr: true }],
    hostProcess: [4, 'bool', 'Whether the container runs as a host process.', { ptr: true }],
    runAsUserName: [3, 'string', 'User name the entrypoint runs as.', { ptr: true }],
  },
);

export const securityContext = message(
  'SecurityContext',
  "Security settings of a container; they override the pod's where both are set.",
  {
    allowPrivilegeEscalation: [
      7,
      'bool',
      'Whether a process may gain more privileges than its parent (no_new_privs).',
      { ptr: true },
    ],
    appArmorProfile: [12, appArmorProfile, '', { ptr: true }],
    capabilities: [1, capabilities, '', { ptr: true }],
    privileged: [2, 'bool', 'Whether the container runs privileged, as root on the host.', { ptr: true }],
    procMount: [9, 'string', 'Default (masked /proc) or Unmasked.', { ptr: true }],
    readOnlyRootFilesystem: [6, 'bool', 'Whether the root filesystem is read-only.', { ptr: true }],
    runAsGroup: [8, 'int64', 'Group ID the entrypoint runs as.', { ptr: true }],
    runAsNonRoot: [
      5,
      'bool',
      'Whether the container must run as a user other than root; checked by the kubelet.',
      { ptr: true },
    ],
    runAsUser: [4, 'int64', 'User ID the entrypoint runs as.', { ptr: true }],
    seLinuxOptions: [3, seLinuxOptions, '', { ptr: true }],
    seccompProfile: [11, seccompProfile, '', { ptr: true }],
    windowsOptions: [10, windowsSecurityContextOptions, '', { ptr: true }],
  },
);

export const volumeDevice = message(
  'VolumeDevice',
  'A raw block volume mapped into a container.',
  {
    devicePath: [2, 'string', 'Path of the device inside the container.'],
    name: [1, 'string', 'A persistentVolumeClaim volume of the pod.'],
  },
  { required: ['name', 'devicePath'] },
);

export const volumeMount = message(
  'VolumeMount',
  'A volume mounted into a container.',
  {
    mountPath: [3, 'string', 'Path inside the container; may not contain ":".'],
    mountPropagation: [5, 'string', 'None (the default), HostToContainer or Bidirectional.', { ptr: true }],
    name: [1, 'string', 'Name of a volume of the pod.'],
    readOnly: [2, 'bool', 'Whether the mount is read-only.'],
    recursiveReadOnly: [
      7,
      'string',
      'Disabled, IfPossible or Enabled: whether submounts are read-only too.',
      { ptr: true },
    ],
    subPath: [4, 'string', 'Path within the volume to mount instead of its root.'],
    subPathExpr: [6, 'string', "Like subPath, with $(VAR) references to the container's environment."],
  },
  { required: ['name', 'mountPath'] },
);

const containerRows: Record<string, Row> = {
  args: [
    4,
    ['string'],
    "Arguments to the entrypoint; the image's CMD when unset. $(VAR) references are expanded.",
    { list: 'atomic' },
  ],
  command: [
    3,
    ['string'],
    "The entrypoint; the image's ENTRYPOINT when unset. Not run in a shell.",
    { list: 'atomic' },
  ],
  env: [7, [envVar], 'Environment variables.', { list: ['name'], patch: 'merge', key: 'name' }],
  envFrom: [
    19,
    [envFromSource],
    'Sources of environment variables; env wins over them on duplicate keys.',
    { list: 'atomic' },
  ],
  image: [2, 'string', 'Container image name.'],
  imagePullPolicy: [
    14,
    'string',
    'Always, Never or IfNotPresent; Always for the :latest tag or none, else IfNotPresent.',
  ],
  lifecycle: [12, lifecycle, '', { ptr: true }],
  livenessProbe: [10, probe, '', { ptr: true }],
  name: [1, 'string', 'Name of the container, a DNS label unique in the pod.'],
  ports: [
    6,
    [containerPort],
    'Ports the container exposes; informational.',
    { list: ['containerPort', 'protocol'], patch: 'merge', key: 'containerPort' },
  ],
  readinessProbe: [11, probe, '', { ptr: true }],
  resizePolicy: [
    23,
    [containerResizePolicy],
    'How the container is resized, per resource.',
    { list: 'atomic' },
  ],
  resources: [8, resourceRequirements],
  restartPolicy: [
    24,
    'string',
    'Only Always, on an init container: makes it a sidecar that runs for the life of the pod.',
    { ptr: true },
  ],
  securityContext: [15, securityContext, '', { ptr: true }],
  startupProbe: [22, probe, '', { ptr: true }],
  stdin: [16, 'bool', 'Whether the container has a stdin buffer.'],
  stdinOnce: [17, 'bool', 'Whether stdin closes after the first attach ends.'],
  terminationMessagePath: [
    13,
    'string',
    "File the container's termination message is read from; /dev/termination-log by default.",
  ],
  terminationMessagePolicy: [20, 'string', 'File (the default) or FallbackToLogsOnError.'],
  tty: [18, 'bool', 'Whether the container gets a TTY; needs stdin.'],
  volumeDevices: [
    21,
    [volumeDevice],
    'Block devices the container uses.',
    { list: ['devicePath'], patch: 'merge', key: 'devicePath' },
  ],
  volumeMounts: [
    9,
    [volumeMount],
    'Volumes mounted into the container.',
    { list: ['mountPath'], patch: 'merge', key: 'mountPath' },
  ],
  workingDir: [5, 'string', "Working directory; the image's by default."],
};

export const container = message('Container', 'A container of the pod.', containerRows, {
  required: ['name'],
});

export const ephemeralContainer = message(
  'EphemeralContainer',
  'A temporary container added to a running pod for debugging; never restarted, no ports, probes or resources.',
  {
    ...embedded(containerRows, 1),
    targetContainerName: [
      2,
      'string',
      'A container of the pod whose namespaces (IPC, PID, ...) this one shares.',
    ],
  },
  { required: ['name'] },
);
