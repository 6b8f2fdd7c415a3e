/**
 * A fully populated object of every built-in kind and its Protobuf body, spelled field by field from the
 * kinds' field numbers (kube's generated.proto) the way kube's marshalers write them: fields in number order,
 * Go value fields always, map entries sorted, times as {1: seconds, 2: nanos}. Encoding the JSON with the
 * kind's own definition gives these bytes, and decoding them gives the JSON back.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ResourceDefinition } from '../../registry/index.js';
import {
  apiServiceDefinition,
  builtinDefinitions,
  clusterRoleBindingDefinition,
  clusterRoleDefinition,
  roleBindingDefinition,
  roleDefinition,
  configMapDefinition,
  eventDefinition,
  eventsEventDefinition,
  leaseDefinition,
  localSubjectAccessReviewDefinition,
  namespaceDefinition,
  nodeDefinition,
  podDefinition,
  secretDefinition,
  selfSubjectAccessReviewDefinition,
  selfSubjectReviewDefinition,
  selfSubjectRulesReviewDefinition,
  serviceAccountDefinition,
  serviceDefinition,
  endpointsDefinition,
  endpointSliceDefinition,
  subjectAccessReviewDefinition,
  tokenReviewDefinition,
} from '../../kinds/index.js';
import { decodeProtobuf, encodeProtobuf } from './meta-messages.js';
import { hex, jan2024, pb, toHex } from '../../../test/support/protobuf.js';

const bin = (s: string) => Buffer.from(s, 'utf8').toString('hex');
const time = (field: number, seconds: number, nanos = 0) =>
  pb.msg(field, pb.int(1, seconds), pb.int(2, nanos));
const entry = (field: number, key: string, value: string) => pb.msg(field, pb.str(1, key), pb.str(2, value));

/** ObjectMeta with every field set, and its message */
const metadataJson = (namespace: string) => ({
  name: 'full',
  generateName: 'full-',
  ...(namespace ? { namespace } : {}),
  selfLink: '/self',
  uid: '1b4c7a35-6f1e-4c62-a0e4-9d7e2b1f0c11',
  resourceVersion: '42',
  generation: 7,
  creationTimestamp: '2024-01-01T00:00:00Z',
  deletionTimestamp: '2024-01-01T00:01:00Z',
  deletionGracePeriodSeconds: 30,
  labels: { app: 'web', 'example.com/tier': 'front' },
  annotations: { note: 'hello ✓' },
  ownerReferences: [
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      name: 'web',
      uid: '0a9f3c1e-2b4d-4e6f-8a0b-1c2d3e4f5a6b',
      controller: true,
      blockOwnerDeletion: false,
    },
  ],
  finalizers: ['example.com/keep', 'example.com/also'],
  managedFields: [
    {
      manager: 'kubectl',
      operation: 'Apply',
      apiVersion: 'v1',
      time: '2024-01-01T00:00:05Z',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:metadata': { 'f:labels': { 'f:app': {} } } },
      subresource: 'status',
    },
  ],
});

const metadataRaw = (namespace: string) =>
  pb.msg(
    1,
    pb.str(1, 'full'),
    pb.str(2, 'full-'),
    pb.str(3, namespace),
    pb.str(4, '/self'),
    pb.str(5, '1b4c7a35-6f1e-4c62-a0e4-9d7e2b1f0c11'),
    pb.str(6, '42'),
    pb.int(7, 7),
    time(8, jan2024),
    time(9, jan2024 + 60),
    pb.int(10, 30),
    entry(11, 'app', 'web'),
    entry(11, 'example.com/tier', 'front'),
    entry(12, 'note', 'hello ✓'),
    pb.msg(
      13,
      pb.str(1, 'Deployment'),
      pb.str(3, 'web'),
      pb.str(4, '0a9f3c1e-2b4d-4e6f-8a0b-1c2d3e4f5a6b'),
      pb.str(5, 'apps/v1'),
      pb.int(6, 1),
      pb.int(7, 0),
    ),
    pb.str(14, 'example.com/keep'),
    pb.str(14, 'example.com/also'),
    pb.msg(
      17,
      pb.str(1, 'kubectl'),
      pb.str(2, 'Apply'),
      pb.str(3, 'v1'),
      time(4, jan2024 + 5),
      pb.str(6, 'FieldsV1'),
      pb.msg(7, pb.str(1, '{"f:metadata":{"f:labels":{"f:app":{}}}}')),
      pb.str(8, 'status'),
    ),
  );

/** ObjectReference {1 kind, 2 namespace, 3 name, 4 uid, 5 apiVersion, 6 resourceVersion, 7 fieldPath} */
const reference = (name: string) => ({
  json: {
    kind: 'Pod',
    namespace: 'ns',
    name,
    uid: 'c3d4e5f6-0000-4000-8000-000000000001',
    apiVersion: 'v1',
    resourceVersion: '9',
    fieldPath: 'spec.containers{app}',
  },
  raw: (field: number) =>
    pb.msg(
      field,
      pb.str(1, 'Pod'),
      pb.str(2, 'ns'),
      pb.str(3, name),
      pb.str(4, 'c3d4e5f6-0000-4000-8000-000000000001'),
      pb.str(5, 'v1'),
      pb.str(6, '9'),
      pb.str(7, 'spec.containers{app}'),
    ),
});

interface Vector {
  def: ResourceDefinition;
  json: Record<string, unknown>;
  /** the object's own message: the envelope's raw */
  raw: string;
}

/** authentication.k8s.io UserInfo: extra's lists wrapped in ExtraValue messages, keys sorted */
const userInfo = {
  json: { username: 'u', uid: '1', groups: ['g1', 'g2'], extra: { b: ['2'], a: ['1', 'x'] } },
  raw:
    pb.str(1, 'u') +
    pb.str(2, '1') +
    pb.str(3, 'g1') +
    pb.str(3, 'g2') +
    pb.msg(4, pb.str(1, 'a'), pb.msg(2, pb.str(1, '1'), pb.str(1, 'x'))) +
    pb.msg(4, pb.str(1, 'b'), pb.msg(2, pb.str(1, '2'))),
};

/** authorization.k8s.io's access review parts, every field set */
const selector = {
  json: { rawSelector: 'a=b', requirements: [{ key: 'k', operator: 'In', values: ['v1', 'v2'] }] },
  raw: pb.str(1, 'a=b') + pb.msg(2, pb.str(1, 'k'), pb.str(2, 'In'), pb.str(3, 'v1'), pb.str(3, 'v2')),
};
const resourceAttributes = {
  json: {
    namespace: 'ns',
    verb: 'list',
    group: 'apps',
    version: 'v1',
    resource: 'deployments',
    subresource: 'scale',
    name: 'web',
    fieldSelector: selector.json,
    labelSelector: selector.json,
  },
  raw:
    pb.str(1, 'ns') +
    pb.str(2, 'list') +
    pb.str(3, 'apps') +
    pb.str(4, 'v1') +
    pb.str(5, 'deployments') +
    pb.str(6, 'scale') +
    pb.str(7, 'web') +
    pb.msg(8, selector.raw) +
    pb.msg(9, selector.raw),
};
const nonResourceAttributes = { json: { path: '/x', verb: 'get' }, raw: pb.str(1, '/x') + pb.str(2, 'get') };
const sarSpec = {
  json: {
    resourceAttributes: resourceAttributes.json,
    nonResourceAttributes: nonResourceAttributes.json,
    user: 'u',
    groups: ['g1', 'g2'],
    extra: { a: ['1'] },
    uid: 'id',
  },
  raw:
    pb.msg(1, resourceAttributes.raw) +
    pb.msg(2, nonResourceAttributes.raw) +
    pb.str(3, 'u') +
    pb.str(4, 'g1') +
    pb.str(4, 'g2') +
    pb.msg(5, pb.str(1, 'a'), pb.msg(2, pb.str(1, '1'))) +
    pb.str(6, 'id'),
};
const sarStatus = {
  json: { allowed: true, reason: 'r', evaluationError: 'e', denied: true },
  raw: pb.int(1, 1) + pb.str(2, 'r') + pb.str(3, 'e') + pb.int(4, 1),
};

/** a ConfigMapNodeConfigSource with every field */
const nodeConfigMap = {
  json: {
    namespace: 'kube-system',
    name: 'cfg',
    uid: 'u',
    resourceVersion: '1',
    kubeletConfigKey: 'kubelet',
  },
  raw: pb.str(1, 'kube-system') + pb.str(2, 'cfg') + pb.str(3, 'u') + pb.str(4, '1') + pb.str(5, 'kubelet'),
};

/**
 * A Pod with the parts whose wire form differs from their JSON: structs Go embeds inline (a volume's source, a
 * probe's handler, an ephemeral container's common fields), quantities, an int-or-string port, pointers kept at
 * zero, and the value fields kube always writes. (Every field of kube's own v1.33 Pod was checked while writing
 * the schema; this vector is ours.)
 */
const quantity = (v: string) => pb.msg(2, pb.str(1, v));
const podVector: Vector = {
  def: podDefinition,
  json: {
    metadata: metadataJson('ns'),
    spec: {
      volumes: [{ name: 'data', configMap: { name: 'cm', defaultMode: 420 } }],
      containers: [
        {
          name: 'web',
          image: 'nginx:1.27',
          ports: [{ name: 'http', containerPort: 80, protocol: 'TCP' }],
          resources: { limits: { cpu: '500m' }, requests: { cpu: '250m' } },
          readinessProbe: { httpGet: { path: '/', port: 'http', scheme: 'HTTP' }, periodSeconds: 10 },
          imagePullPolicy: 'IfNotPresent',
          securityContext: { seccompProfile: { type: 'Localhost', localhostProfile: 'p.json' } },
        },
      ],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      nodeSelector: { disk: 'ssd' },
      nodeName: 'n1',
      securityContext: { runAsUser: 0 },
      tolerations: [{ key: 'k', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }],
      ephemeralContainers: [{ name: 'debug', image: 'busybox', resources: {}, targetContainerName: 'web' }],
    },
    status: {
      phase: 'Running',
      conditions: [
        { type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: '2024-01-01T00:00:00Z' },
      ],
      containerStatuses: [
        {
          name: 'web',
          state: { running: { startedAt: '2024-01-01T00:00:00Z' } },
          lastState: {},
          ready: true,
          restartCount: 0,
          image: 'nginx:1.27',
          imageID: '',
          started: true,
        },
      ],
      qosClass: 'Burstable',
      podIPs: [{ ip: '10.0.0.5' }],
    },
  },
  raw:
    metadataRaw('ns') +
    pb.msg(
      2,
      pb.msg(1, pb.str(1, 'data'), pb.msg(2, pb.msg(19, pb.msg(1, pb.str(1, 'cm')), pb.int(3, 420)))),
      pb.msg(
        2,
        pb.str(1, 'web'),
        pb.str(2, 'nginx:1.27'),
        pb.str(5, ''),
        pb.msg(6, pb.str(1, 'http'), pb.int(2, 0), pb.int(3, 80), pb.str(4, 'TCP'), pb.str(5, '')),
        pb.msg(
          8,
          pb.msg(1, pb.str(1, 'cpu'), quantity('500m')),
          pb.msg(2, pb.str(1, 'cpu'), quantity('250m')),
        ),
        pb.msg(
          11,
          pb.msg(
            1,
            pb.msg(
              2,
              pb.str(1, '/'),
              pb.msg(2, pb.int(1, 1), pb.int(2, 0), pb.str(3, 'http')),
              pb.str(3, ''),
              pb.str(4, 'HTTP'),
            ),
          ),
          pb.int(2, 0),
          pb.int(3, 0),
          pb.int(4, 10),
          pb.int(5, 0),
          pb.int(6, 0),
        ),
        pb.str(13, ''),
        pb.str(14, 'IfNotPresent'),
        pb.msg(15, pb.msg(11, pb.str(1, 'Localhost'), pb.str(2, 'p.json'))),
        pb.int(16, 0),
        pb.int(17, 0),
        pb.int(18, 0),
        pb.str(20, ''),
      ),
      pb.str(3, 'Always'),
      pb.int(4, 30),
      pb.str(6, ''),
      entry(7, 'disk', 'ssd'),
      pb.str(8, ''),
      pb.str(9, ''),
      pb.str(10, 'n1'),
      pb.int(11, 0),
      pb.int(12, 0),
      pb.int(13, 0),
      pb.msg(14, pb.int(2, 0)),
      pb.str(16, ''),
      pb.str(17, ''),
      pb.str(19, ''),
      pb.msg(22, pb.str(1, 'k'), pb.str(2, 'Exists'), pb.str(3, ''), pb.str(4, 'NoExecute'), pb.int(5, 300)),
      pb.str(24, ''),
      pb.msg(
        34,
        pb.msg(
          1,
          pb.str(1, 'debug'),
          pb.str(2, 'busybox'),
          pb.str(5, ''),
          pb.msg(8),
          pb.str(13, ''),
          pb.str(14, ''),
          pb.int(16, 0),
          pb.int(17, 0),
          pb.int(18, 0),
          pb.str(20, ''),
        ),
        pb.str(2, 'web'),
      ),
    ) +
    pb.msg(
      3,
      pb.str(1, 'Running'),
      pb.msg(
        2,
        pb.str(1, 'Ready'),
        pb.str(2, 'True'),
        pb.msg(3),
        time(4, jan2024),
        pb.str(5, ''),
        pb.str(6, ''),
      ),
      pb.str(3, ''),
      pb.str(4, ''),
      pb.str(5, ''),
      pb.str(6, ''),
      pb.msg(
        8,
        pb.str(1, 'web'),
        pb.msg(2, pb.msg(2, time(1, jan2024))),
        pb.msg(3),
        pb.int(4, 1),
        pb.int(5, 0),
        pb.str(6, 'nginx:1.27'),
        pb.str(7, ''),
        pb.str(8, ''),
        pb.int(9, 1),
      ),
      pb.str(9, 'Burstable'),
      pb.str(11, ''),
      pb.msg(12, pb.str(1, '10.0.0.5')),
      pb.str(14, ''),
    ),
};

const vectors: Vector[] = [
  podVector,
  {
    def: namespaceDefinition,
    json: {
      metadata: metadataJson(''),
      spec: { finalizers: ['kubernetes', 'example.com/ns'] },
      status: {
        phase: 'Terminating',
        conditions: [
          {
            type: 'NamespaceDeletionContentFailure',
            status: 'True',
            lastTransitionTime: '2024-01-01T00:02:00Z',
            reason: 'ContentDeletionFailed',
            message: 'failed to delete some content',
          },
        ],
      },
    },
    raw:
      metadataRaw('') +
      pb.msg(2, pb.str(1, 'kubernetes'), pb.str(1, 'example.com/ns')) +
      pb.msg(
        3,
        pb.str(1, 'Terminating'),
        pb.msg(
          2,
          pb.str(1, 'NamespaceDeletionContentFailure'),
          pb.str(2, 'True'),
          time(4, jan2024 + 120),
          pb.str(5, 'ContentDeletionFailed'),
          pb.str(6, 'failed to delete some content'),
        ),
      ),
  },
  {
    def: apiServiceDefinition,
    json: {
      metadata: metadataJson(''),
      spec: {
        service: { namespace: 'ns', name: 'api', port: 8443 },
        group: 'example.com',
        version: 'v1',
        insecureSkipTLSVerify: true,
        caBundle: Buffer.from('ca').toString('base64'),
        groupPriorityMinimum: 1000,
        versionPriority: 15,
      },
      status: {
        conditions: [
          {
            type: 'Available',
            status: 'False',
            lastTransitionTime: '2024-01-01T00:02:00Z',
            reason: 'FailedDiscoveryCheck',
            message: 'failing',
          },
        ],
      },
    },
    raw:
      metadataRaw('') +
      pb.msg(
        2,
        pb.msg(1, pb.str(1, 'ns'), pb.str(2, 'api'), pb.int(3, 8443)),
        pb.str(2, 'example.com'),
        pb.str(3, 'v1'),
        pb.int(4, 1),
        pb.bytes(5, bin('ca')),
        pb.int(7, 1000),
        pb.int(8, 15),
      ) +
      pb.msg(
        3,
        pb.msg(
          1,
          pb.str(1, 'Available'),
          pb.str(2, 'False'),
          time(3, jan2024 + 120),
          pb.str(4, 'FailedDiscoveryCheck'),
          pb.str(5, 'failing'),
        ),
      ),
  },
  {
    def: configMapDefinition,
    json: {
      metadata: metadataJson('ns'),
      data: { 'b.txt': 'two', 'a.txt': 'one\nline' },
      binaryData: { 'logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47]).toString('base64') },
      immutable: true,
    },
    raw:
      metadataRaw('ns') +
      entry(2, 'a.txt', 'one\nline') +
      entry(2, 'b.txt', 'two') +
      pb.msg(3, pb.str(1, 'logo.png'), pb.bytes(2, '89504e47')) +
      pb.int(4, 1),
  },
  {
    def: secretDefinition,
    json: {
      metadata: metadataJson('ns'),
      data: { password: Buffer.from([0, 255]).toString('base64'), username: 'YWRtaW4=' },
      type: 'kubernetes.io/basic-auth',
      stringData: { token: 'abc' },
      immutable: false,
    },
    raw:
      metadataRaw('ns') +
      pb.msg(2, pb.str(1, 'password'), pb.bytes(2, '00ff')) +
      pb.msg(2, pb.str(1, 'username'), pb.bytes(2, bin('admin'))) +
      pb.str(3, 'kubernetes.io/basic-auth') +
      entry(4, 'token', 'abc') +
      pb.int(5, 0),
  },
  {
    def: serviceAccountDefinition,
    json: {
      metadata: metadataJson('ns'),
      secrets: [reference('p').json],
      imagePullSecrets: [{ name: 'registry' }, { name: 'mirror' }],
      automountServiceAccountToken: false,
    },
    raw:
      metadataRaw('ns') +
      reference('p').raw(2) +
      pb.msg(3, pb.str(1, 'registry')) +
      pb.msg(3, pb.str(1, 'mirror')) +
      pb.int(4, 0),
  },
  {
    def: eventDefinition,
    json: {
      metadata: metadataJson('ns'),
      involvedObject: reference('p').json,
      reason: 'BackOff',
      message: 'Back-off restarting failed container',
      source: { component: 'kubelet', host: 'node-1' },
      firstTimestamp: '2024-01-01T00:00:10Z',
      lastTimestamp: '2024-01-01T00:00:20Z',
      count: 4,
      type: 'Warning',
      eventTime: '2024-01-01T00:00:10.123456Z',
      series: { count: 3, lastObservedTime: '2024-01-01T00:00:19.000001Z' },
      action: 'Restarting',
      related: reference('q').json,
      reportingComponent: 'kubernetes.io/kubelet',
      reportingInstance: 'kubelet-node-1',
    },
    raw:
      metadataRaw('ns') +
      reference('p').raw(2) +
      pb.str(3, 'BackOff') +
      pb.str(4, 'Back-off restarting failed container') +
      pb.msg(5, pb.str(1, 'kubelet'), pb.str(2, 'node-1')) +
      time(6, jan2024 + 10) +
      time(7, jan2024 + 20) +
      pb.int(8, 4) +
      pb.str(9, 'Warning') +
      time(10, jan2024 + 10, 123456000) +
      pb.msg(11, pb.int(1, 3), time(2, jan2024 + 19, 1000)) +
      pb.str(12, 'Restarting') +
      reference('q').raw(13) +
      pb.str(14, 'kubernetes.io/kubelet') +
      pb.str(15, 'kubelet-node-1'),
  },
  {
    def: eventsEventDefinition,
    json: {
      metadata: metadataJson('ns'),
      eventTime: '2024-01-01T00:00:10.123456Z',
      series: { count: 3, lastObservedTime: '2024-01-01T00:00:19.000001Z' },
      reportingController: 'kubernetes.io/kubelet',
      reportingInstance: 'kubelet-node-1',
      action: 'Restarting',
      reason: 'BackOff',
      regarding: reference('p').json,
      related: reference('q').json,
      note: 'Back-off restarting failed container',
      type: 'Warning',
      deprecatedSource: { component: 'kubelet', host: 'node-1' },
      deprecatedFirstTimestamp: '2024-01-01T00:00:10Z',
      deprecatedLastTimestamp: '2024-01-01T00:00:20Z',
      deprecatedCount: 4,
    },
    raw:
      metadataRaw('ns') +
      time(2, jan2024 + 10, 123456000) +
      pb.msg(3, pb.int(1, 3), time(2, jan2024 + 19, 1000)) +
      pb.str(4, 'kubernetes.io/kubelet') +
      pb.str(5, 'kubelet-node-1') +
      pb.str(6, 'Restarting') +
      pb.str(7, 'BackOff') +
      reference('p').raw(8) +
      reference('q').raw(9) +
      pb.str(10, 'Back-off restarting failed container') +
      pb.str(11, 'Warning') +
      pb.msg(12, pb.str(1, 'kubelet'), pb.str(2, 'node-1')) +
      time(13, jan2024 + 10) +
      time(14, jan2024 + 20) +
      pb.int(15, 4),
  },
  {
    def: leaseDefinition,
    json: {
      metadata: metadataJson('ns'),
      spec: {
        holderIdentity: 'node-1',
        leaseDurationSeconds: 40,
        acquireTime: '2024-01-01T00:00:00.000001Z',
        renewTime: '2024-01-01T00:00:30.500000Z',
        leaseTransitions: 2,
        strategy: 'OldestEmulationVersion',
        preferredHolder: 'node-2',
      },
    },
    raw:
      metadataRaw('ns') +
      pb.msg(
        2,
        pb.str(1, 'node-1'),
        pb.int(2, 40),
        time(3, jan2024, 1000),
        time(4, jan2024 + 30, 500000000),
        pb.int(5, 2),
        pb.str(6, 'OldestEmulationVersion'),
        pb.str(7, 'node-2'),
      ),
  },
  ...[roleDefinition, clusterRoleDefinition].map((def) => {
    const ns = def === roleDefinition ? 'ns' : '';
    const aggregated = def === clusterRoleDefinition;
    return {
      def,
      json: {
        metadata: metadataJson(ns),
        rules: [
          {
            verbs: ['get', 'list'],
            apiGroups: ['apps'],
            resources: ['deployments', 'deployments/scale'],
            resourceNames: ['web'],
            nonResourceURLs: ['/healthz'],
          },
        ],
        ...(aggregated
          ? {
              aggregationRule: {
                clusterRoleSelectors: [
                  {
                    matchLabels: { a: 'b' },
                    matchExpressions: [{ key: 'tier', operator: 'In', values: ['x', 'y'] }],
                  },
                ],
              },
            }
          : {}),
      },
      raw:
        metadataRaw(ns) +
        pb.msg(
          2,
          pb.str(1, 'get'),
          pb.str(1, 'list'),
          pb.str(2, 'apps'),
          pb.str(3, 'deployments'),
          pb.str(3, 'deployments/scale'),
          pb.str(4, 'web'),
          pb.str(5, '/healthz'),
        ) +
        (aggregated
          ? pb.msg(
              3,
              pb.msg(
                1,
                entry(1, 'a', 'b'),
                pb.msg(2, pb.str(1, 'tier'), pb.str(2, 'In'), pb.str(3, 'x'), pb.str(3, 'y')),
              ),
            )
          : ''),
    };
  }),
  ...[roleBindingDefinition, clusterRoleBindingDefinition].map((def) => {
    const ns = def === roleBindingDefinition ? 'ns' : '';
    return {
      def,
      json: {
        metadata: metadataJson(ns),
        subjects: [{ kind: 'ServiceAccount', apiGroup: 'g', name: 'sa', namespace: 'other' }],
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
      },
      raw:
        metadataRaw(ns) +
        pb.msg(2, pb.str(1, 'ServiceAccount'), pb.str(2, 'g'), pb.str(3, 'sa'), pb.str(4, 'other')) +
        pb.msg(3, pb.str(1, 'rbac.authorization.k8s.io'), pb.str(2, 'ClusterRole'), pb.str(3, 'view')),
    };
  }),
  {
    def: serviceDefinition,
    json: {
      metadata: metadataJson('ns'),
      spec: {
        ports: [
          {
            name: 'https',
            protocol: 'TCP',
            appProtocol: 'https',
            port: 443,
            targetPort: 'web',
            nodePort: 30443,
          },
        ],
        selector: { app: 'web' },
        clusterIP: '10.0.0.1',
        clusterIPs: ['10.0.0.1', 'fd00::1'],
        type: 'LoadBalancer',
        externalIPs: ['192.0.2.1'],
        sessionAffinity: 'ClientIP',
        loadBalancerIP: '192.0.2.9',
        loadBalancerSourceRanges: ['10.0.0.0/8'],
        externalName: 'x.example.com',
        externalTrafficPolicy: 'Local',
        healthCheckNodePort: 30000,
        publishNotReadyAddresses: true,
        sessionAffinityConfig: { clientIP: { timeoutSeconds: 600 } },
        ipFamilies: ['IPv4', 'IPv6'],
        ipFamilyPolicy: 'RequireDualStack',
        allocateLoadBalancerNodePorts: false,
        loadBalancerClass: 'example.com/lb',
        internalTrafficPolicy: 'Local',
        trafficDistribution: 'PreferClose',
      },
      status: {
        loadBalancer: {
          ingress: [
            {
              ip: '192.0.2.10',
              hostname: 'lb.example.com',
              ipMode: 'VIP',
              ports: [{ port: 443, protocol: 'TCP', error: 'Pending' }],
            },
          ],
        },
        conditions: [
          {
            type: 'Ready',
            status: 'True',
            observedGeneration: 3,
            lastTransitionTime: '2024-01-01T00:00:10Z',
            reason: 'Done',
            message: 'ok',
          },
        ],
      },
    },
    raw:
      metadataRaw('ns') +
      pb.msg(
        2,
        pb.msg(
          1,
          pb.str(1, 'https'),
          pb.str(2, 'TCP'),
          pb.int(3, 443),
          pb.msg(4, pb.int(1, 1), pb.int(2, 0), pb.str(3, 'web')),
          pb.int(5, 30443),
          pb.str(6, 'https'),
        ),
        entry(2, 'app', 'web'),
        pb.str(3, '10.0.0.1'),
        pb.str(4, 'LoadBalancer'),
        pb.str(5, '192.0.2.1'),
        pb.str(7, 'ClientIP'),
        pb.str(8, '192.0.2.9'),
        pb.str(9, '10.0.0.0/8'),
        pb.str(10, 'x.example.com'),
        pb.str(11, 'Local'),
        pb.int(12, 30000),
        pb.int(13, 1),
        pb.msg(14, pb.msg(1, pb.int(1, 600))),
        pb.str(17, 'RequireDualStack'),
        pb.str(18, '10.0.0.1'),
        pb.str(18, 'fd00::1'),
        pb.str(19, 'IPv4'),
        pb.str(19, 'IPv6'),
        pb.int(20, 0),
        pb.str(21, 'example.com/lb'),
        pb.str(22, 'Local'),
        pb.str(23, 'PreferClose'),
      ) +
      pb.msg(
        3,
        pb.msg(
          1,
          pb.msg(
            1,
            pb.str(1, '192.0.2.10'),
            pb.str(2, 'lb.example.com'),
            pb.str(3, 'VIP'),
            pb.msg(4, pb.int(1, 443), pb.str(2, 'TCP'), pb.str(3, 'Pending')),
          ),
        ),
        pb.msg(
          2,
          pb.str(1, 'Ready'),
          pb.str(2, 'True'),
          pb.int(3, 3),
          time(4, jan2024 + 10),
          pb.str(5, 'Done'),
          pb.str(6, 'ok'),
        ),
      ),
  },
  {
    def: endpointsDefinition,
    json: {
      metadata: metadataJson('ns'),
      subsets: [
        {
          addresses: [{ ip: '10.1.0.1', hostname: 'a', nodeName: 'node-1', targetRef: reference('p').json }],
          notReadyAddresses: [{ ip: '10.1.0.2' }],
          ports: [{ name: 'http', port: 8080, protocol: 'TCP', appProtocol: 'http' }],
        },
      ],
    },
    raw:
      metadataRaw('ns') +
      pb.msg(
        2,
        pb.msg(1, pb.str(1, '10.1.0.1'), reference('p').raw(2), pb.str(3, 'a'), pb.str(4, 'node-1')),
        pb.msg(2, pb.str(1, '10.1.0.2'), pb.str(3, '')),
        pb.msg(3, pb.str(1, 'http'), pb.int(2, 8080), pb.str(3, 'TCP'), pb.str(4, 'http')),
      ),
  },
  {
    def: endpointSliceDefinition,
    json: {
      metadata: metadataJson('ns'),
      addressType: 'IPv4',
      endpoints: [
        {
          addresses: ['10.1.0.1'],
          conditions: { ready: true, serving: true, terminating: false },
          hostname: 'a',
          targetRef: reference('p').json,
          deprecatedTopology: { 'kubernetes.io/hostname': 'node-1' },
          nodeName: 'node-1',
          zone: 'z1',
          hints: { forZones: [{ name: 'z1' }] },
        },
      ],
      ports: [{ name: 'http', protocol: 'TCP', port: 8080, appProtocol: 'http' }],
    },
    raw:
      metadataRaw('ns') +
      pb.msg(
        2,
        pb.str(1, '10.1.0.1'),
        pb.msg(2, pb.int(1, 1), pb.int(2, 1), pb.int(3, 0)),
        pb.str(3, 'a'),
        reference('p').raw(4),
        entry(5, 'kubernetes.io/hostname', 'node-1'),
        pb.str(6, 'node-1'),
        pb.str(7, 'z1'),
        pb.msg(8, pb.msg(1, pb.str(1, 'z1'))),
      ) +
      pb.msg(3, pb.str(1, 'http'), pb.str(2, 'TCP'), pb.int(3, 8080), pb.str(4, 'http')) +
      pb.str(4, 'IPv4'),
  },
  {
    def: tokenReviewDefinition,
    json: {
      metadata: metadataJson(''),
      spec: { token: 'abc', audiences: ['a', 'b'] },
      status: { authenticated: true, user: userInfo.json, audiences: ['a'], error: 'e' },
    },
    raw:
      metadataRaw('') +
      pb.msg(2, pb.str(1, 'abc'), pb.str(2, 'a'), pb.str(2, 'b')) +
      pb.msg(3, pb.int(1, 1), pb.msg(2, userInfo.raw), pb.str(3, 'e'), pb.str(4, 'a')),
  },
  {
    def: selfSubjectReviewDefinition,
    json: { metadata: metadataJson(''), status: { userInfo: userInfo.json } },
    raw: metadataRaw('') + pb.msg(2, pb.msg(1, userInfo.raw)),
  },
  {
    def: subjectAccessReviewDefinition,
    json: { metadata: metadataJson(''), spec: sarSpec.json, status: sarStatus.json },
    raw: metadataRaw('') + pb.msg(2, sarSpec.raw) + pb.msg(3, sarStatus.raw),
  },
  {
    def: localSubjectAccessReviewDefinition,
    json: { metadata: metadataJson('ns'), spec: sarSpec.json, status: sarStatus.json },
    raw: metadataRaw('ns') + pb.msg(2, sarSpec.raw) + pb.msg(3, sarStatus.raw),
  },
  {
    def: selfSubjectAccessReviewDefinition,
    json: {
      metadata: metadataJson(''),
      spec: {
        resourceAttributes: resourceAttributes.json,
        nonResourceAttributes: nonResourceAttributes.json,
      },
      status: sarStatus.json,
    },
    raw:
      metadataRaw('') +
      pb.msg(2, pb.msg(1, resourceAttributes.raw), pb.msg(2, nonResourceAttributes.raw)) +
      pb.msg(3, sarStatus.raw),
  },
  {
    def: selfSubjectRulesReviewDefinition,
    json: {
      metadata: metadataJson(''),
      spec: { namespace: 'ns' },
      status: {
        resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: ['p'] }],
        nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/x*'] }],
        incomplete: true,
        evaluationError: 'e',
      },
    },
    raw:
      metadataRaw('') +
      pb.msg(2, pb.str(1, 'ns')) +
      pb.msg(
        3,
        pb.msg(1, pb.str(1, 'get'), pb.str(2, ''), pb.str(3, 'pods'), pb.str(4, 'p')),
        pb.msg(2, pb.str(1, 'get'), pb.str(2, '/x*')),
        pb.int(3, 1),
        pb.str(4, 'e'),
      ),
  },
  {
    def: nodeDefinition,
    json: {
      metadata: metadataJson(''),
      spec: {
        podCIDR: '10.244.1.0/24',
        podCIDRs: ['10.244.1.0/24', 'fd00:10:244:1::/64'],
        providerID: 'kind://n1',
        unschedulable: true,
        taints: [{ key: 'k', value: 'v', effect: 'NoExecute', timeAdded: '2024-01-01T00:00:00Z' }],
        configSource: { configMap: nodeConfigMap.json },
        externalID: 'ext',
      },
      status: {
        capacity: { cpu: '4', memory: '8Gi' },
        allocatable: { cpu: '3500m' },
        phase: 'Running',
        conditions: [
          {
            type: 'Ready',
            status: 'True',
            lastHeartbeatTime: '2024-01-01T00:00:10Z',
            lastTransitionTime: '2024-01-01T00:00:00Z',
            reason: 'KubeletReady',
            message: 'ok',
          },
        ],
        addresses: [{ type: 'InternalIP', address: '10.0.0.1' }],
        daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
        nodeInfo: {
          machineID: 'm',
          systemUUID: 's',
          bootID: 'b',
          kernelVersion: 'k',
          osImage: 'o',
          containerRuntimeVersion: 'c',
          kubeletVersion: 'v1.32.3',
          kubeProxyVersion: 'p',
          operatingSystem: 'linux',
          architecture: 'amd64',
        },
        images: [{ names: ['a:1', 'a@sha256:00'], sizeBytes: 1024 }],
        volumesInUse: ['vol'],
        volumesAttached: [{ name: 'vol', devicePath: '/dev/x' }],
        config: {
          assigned: { configMap: nodeConfigMap.json },
          active: { configMap: nodeConfigMap.json },
          lastKnownGood: { configMap: nodeConfigMap.json },
          error: 'e',
        },
        runtimeHandlers: [
          { name: 'runc', features: { recursiveReadOnlyMounts: true, userNamespaces: false } },
        ],
        features: { supplementalGroupsPolicy: true },
      },
    },
    raw:
      metadataRaw('') +
      pb.msg(
        2,
        pb.str(1, '10.244.1.0/24'),
        pb.str(2, 'ext'),
        pb.str(3, 'kind://n1'),
        pb.int(4, 1),
        pb.msg(5, pb.str(1, 'k'), pb.str(2, 'v'), pb.str(3, 'NoExecute'), time(4, jan2024)),
        pb.msg(6, pb.msg(2, nodeConfigMap.raw)),
        pb.str(7, '10.244.1.0/24'),
        pb.str(7, 'fd00:10:244:1::/64'),
      ) +
      pb.msg(
        3,
        pb.msg(1, pb.str(1, 'cpu'), pb.msg(2, pb.str(1, '4'))),
        pb.msg(1, pb.str(1, 'memory'), pb.msg(2, pb.str(1, '8Gi'))),
        pb.msg(2, pb.str(1, 'cpu'), pb.msg(2, pb.str(1, '3500m'))),
        pb.str(3, 'Running'),
        pb.msg(
          4,
          pb.str(1, 'Ready'),
          pb.str(2, 'True'),
          time(3, jan2024 + 10),
          time(4, jan2024),
          pb.str(5, 'KubeletReady'),
          pb.str(6, 'ok'),
        ),
        pb.msg(5, pb.str(1, 'InternalIP'), pb.str(2, '10.0.0.1')),
        pb.msg(6, pb.msg(1, pb.int(1, 10250))),
        pb.msg(
          7,
          pb.str(1, 'm'),
          pb.str(2, 's'),
          pb.str(3, 'b'),
          pb.str(4, 'k'),
          pb.str(5, 'o'),
          pb.str(6, 'c'),
          pb.str(7, 'v1.32.3'),
          pb.str(8, 'p'),
          pb.str(9, 'linux'),
          pb.str(10, 'amd64'),
        ),
        pb.msg(8, pb.str(1, 'a:1'), pb.str(1, 'a@sha256:00'), pb.int(2, 1024)),
        pb.str(9, 'vol'),
        pb.msg(10, pb.str(1, 'vol'), pb.str(2, '/dev/x')),
        pb.msg(
          11,
          pb.msg(1, pb.msg(2, nodeConfigMap.raw)),
          pb.msg(2, pb.msg(2, nodeConfigMap.raw)),
          pb.msg(3, pb.msg(2, nodeConfigMap.raw)),
          pb.str(4, 'e'),
        ),
        pb.msg(12, pb.str(1, 'runc'), pb.msg(2, pb.int(1, 1), pb.int(2, 0))),
        pb.msg(13, pb.int(1, 1)),
      ),
  },
];

describe('fully populated objects of every built-in kind', () => {
  for (const { def, json, raw } of vectors) {
    const apiVersion = def.group ? `${def.group}/v1` : 'v1';
    const object = { apiVersion, kind: def.kind, ...json };
    const body = pb.envelope(apiVersion, def.kind, raw);

    it(`${def.kind}: encodes to the vector`, () => {
      assert.equal(toHex(encodeProtobuf(object, def.schema)), body);
    });

    it(`${def.kind}: decodes from the vector`, () => {
      assert.deepEqual(decodeProtobuf(hex(body), def.schema), object);
    });
  }

  it('every built-in kind has a vector', () => {
    assert.deepEqual(vectors.map((v) => v.def.kind).sort(), builtinDefinitions.map((d) => d.kind).sort());
  });
});
