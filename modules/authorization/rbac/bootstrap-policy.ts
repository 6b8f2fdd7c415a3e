/**
 * kube v1.32's default cluster roles and bindings (bootstrappolicy), for the kinds this server can serve:
 * created at start and reconciled while they carry `rbac.authorization.kubernetes.io/autoupdate: "true"`.
 */
import type { KubeObject } from '../../api/index.js';
import type { PolicyRule } from './rules.js';

export const AUTOUPDATE = 'rbac.authorization.kubernetes.io/autoupdate';
const RBAC = 'rbac.authorization.k8s.io';
const API_VERSION = `${RBAC}/v1`;

const read = ['get', 'list', 'watch'];
const write = ['create', 'delete', 'deletecollection', 'patch', 'update'];
const readWrite = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

const rule = (
  verbs: string[],
  apiGroups: string[],
  resources: string[],
  resourceNames?: string[],
): PolicyRule =>
  resourceNames ? { verbs, apiGroups, resources, resourceNames } : { verbs, apiGroups, resources };
const urls = (verbs: string[], nonResourceURLs: string[]): PolicyRule => ({ verbs, nonResourceURLs });

const meta = (name: string, labels: Record<string, string> = {}, namespace?: string) => ({
  name,
  ...(namespace ? { namespace } : {}),
  labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults', ...labels },
  annotations: { [AUTOUPDATE]: 'true' },
});

function clusterRole(name: string, rules: PolicyRule[], labels?: Record<string, string>): KubeObject {
  return { apiVersion: API_VERSION, kind: 'ClusterRole', metadata: meta(name, labels), rules };
}

function aggregated(name: string, to: string, labels?: Record<string, string>): KubeObject {
  return {
    apiVersion: API_VERSION,
    kind: 'ClusterRole',
    metadata: meta(name, labels),
    aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [`${RBAC}/aggregate-to-${to}`]: 'true' } }] },
    rules: [],
  };
}

const group = (name: string) => ({ apiGroup: RBAC, kind: 'Group', name });
const user = (name: string) => ({ apiGroup: RBAC, kind: 'User', name });

function clusterBinding(role: string, subjects: object[]): KubeObject {
  return {
    apiVersion: API_VERSION,
    kind: 'ClusterRoleBinding',
    metadata: meta(role),
    roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: role },
    ...(subjects.length > 0 ? { subjects } : {}),
  };
}

const aggregateTo = (to: string) => ({ [`${RBAC}/aggregate-to-${to}`]: 'true' });

export const defaultClusterRoles: KubeObject[] = [
  clusterRole('cluster-admin', [rule(['*'], ['*'], ['*']), urls(['*'], ['*'])]),
  aggregated('admin', 'admin'),
  aggregated('edit', 'edit', aggregateTo('admin')),
  aggregated('view', 'view', aggregateTo('edit')),
  clusterRole(
    'system:aggregate-to-admin',
    [
      rule(['create'], ['authorization.k8s.io'], ['localsubjectaccessreviews']),
      rule(readWrite, [RBAC], ['rolebindings', 'roles']),
    ],
    aggregateTo('admin'),
  ),
  clusterRole(
    'system:aggregate-to-edit',
    [
      rule(
        read,
        [''],
        ['pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy', 'secrets', 'services/proxy'],
      ),
      rule(['impersonate'], [''], ['serviceaccounts']),
      rule(write, [''], ['pods', 'pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy']),
      rule(['create'], [''], ['pods/eviction']),
      rule(
        write,
        [''],
        [
          'configmaps',
          'events',
          'persistentvolumeclaims',
          'replicationcontrollers',
          'replicationcontrollers/scale',
          'secrets',
          'serviceaccounts',
          'services',
          'services/proxy',
        ],
      ),
      rule(['create'], [''], ['serviceaccounts/token']),
      rule(
        write,
        ['apps'],
        [
          'daemonsets',
          'deployments',
          'deployments/rollback',
          'deployments/scale',
          'replicasets',
          'replicasets/scale',
          'statefulsets',
          'statefulsets/scale',
        ],
      ),
      rule(write, ['autoscaling'], ['horizontalpodautoscalers']),
      rule(write, ['batch'], ['cronjobs', 'jobs']),
      rule(
        write,
        ['extensions'],
        [
          'daemonsets',
          'deployments',
          'deployments/rollback',
          'deployments/scale',
          'ingresses',
          'networkpolicies',
          'replicasets',
          'replicasets/scale',
          'replicationcontrollers/scale',
        ],
      ),
      rule(write, ['policy'], ['poddisruptionbudgets']),
      rule(write, ['networking.k8s.io'], ['ingresses', 'networkpolicies']),
      rule(readWrite, ['coordination.k8s.io'], ['leases']),
    ],
    aggregateTo('edit'),
  ),
  clusterRole(
    'system:aggregate-to-view',
    [
      rule(
        read,
        [''],
        [
          'configmaps',
          'endpoints',
          'persistentvolumeclaims',
          'persistentvolumeclaims/status',
          'pods',
          'replicationcontrollers',
          'replicationcontrollers/scale',
          'serviceaccounts',
          'services',
          'services/status',
        ],
      ),
      rule(
        read,
        [''],
        [
          'bindings',
          'events',
          'limitranges',
          'namespaces/status',
          'pods/log',
          'pods/status',
          'replicationcontrollers/status',
          'resourcequotas',
          'resourcequotas/status',
        ],
      ),
      rule(read, [''], ['namespaces']),
      rule(read, ['discovery.k8s.io'], ['endpointslices']),
      rule(
        read,
        ['apps'],
        [
          'controllerrevisions',
          'daemonsets',
          'daemonsets/status',
          'deployments',
          'deployments/scale',
          'deployments/status',
          'replicasets',
          'replicasets/scale',
          'replicasets/status',
          'statefulsets',
          'statefulsets/scale',
          'statefulsets/status',
        ],
      ),
      rule(read, ['autoscaling'], ['horizontalpodautoscalers', 'horizontalpodautoscalers/status']),
      rule(read, ['batch'], ['cronjobs', 'cronjobs/status', 'jobs', 'jobs/status']),
      rule(
        read,
        ['extensions'],
        [
          'daemonsets',
          'daemonsets/status',
          'deployments',
          'deployments/scale',
          'deployments/status',
          'ingresses',
          'ingresses/status',
          'networkpolicies',
          'replicasets',
          'replicasets/scale',
          'replicasets/status',
          'replicationcontrollers/scale',
        ],
      ),
      rule(read, ['policy'], ['poddisruptionbudgets', 'poddisruptionbudgets/status']),
      rule(read, ['networking.k8s.io'], ['ingresses', 'ingresses/status', 'networkpolicies']),
    ],
    aggregateTo('view'),
  ),
  clusterRole('system:auth-delegator', [
    rule(['create'], ['authentication.k8s.io'], ['tokenreviews']),
    rule(['create'], ['authorization.k8s.io'], ['subjectaccessreviews']),
  ]),
  clusterRole('system:basic-user', [
    rule(['create'], ['authorization.k8s.io'], ['selfsubjectaccessreviews', 'selfsubjectrulesreviews']),
    rule(['create'], ['authentication.k8s.io'], ['selfsubjectreviews']),
  ]),
  clusterRole('system:discovery', [
    urls(
      ['get'],
      [
        '/api',
        '/api/*',
        '/apis',
        '/apis/*',
        '/healthz',
        '/livez',
        '/openapi',
        '/openapi/*',
        '/readyz',
        '/version',
        '/version/',
      ],
    ),
  ]),
  clusterRole('system:public-info-viewer', [
    urls(['get'], ['/healthz', '/livez', '/readyz', '/version', '/version/']),
  ]),
  clusterRole('system:service-account-issuer-discovery', [
    urls(
      ['get'],
      [
        '/.well-known/openid-configuration',
        '/.well-known/openid-configuration/',
        '/openid/v1/jwks',
        '/openid/v1/jwks/',
      ],
    ),
  ]),
  clusterRole('system:monitoring', [
    urls(
      ['get'],
      ['/healthz', '/healthz/*', '/livez', '/livez/*', '/metrics', '/metrics/slis', '/readyz', '/readyz/*'],
    ),
  ]),
  clusterRole('system:node', [
    rule(['create'], ['authentication.k8s.io'], ['tokenreviews']),
    rule(['create'], ['authorization.k8s.io'], ['localsubjectaccessreviews', 'subjectaccessreviews']),
    rule(read, [''], ['services']),
    rule(['create', 'get', 'list', 'watch'], [''], ['nodes']),
    rule(['patch', 'update'], [''], ['nodes/status']),
    rule(['patch', 'update'], [''], ['nodes']),
    rule(['create', 'patch', 'update'], ['', 'events.k8s.io'], ['events']),
    rule(read, [''], ['pods']),
    rule(['create', 'delete'], [''], ['pods']),
    rule(['patch', 'update'], [''], ['pods/status']),
    rule(['create'], [''], ['pods/eviction']),
    rule(read, [''], ['configmaps', 'secrets']),
    rule(['get'], [''], ['persistentvolumeclaims', 'persistentvolumes']),
    rule(['get'], [''], ['endpoints']),
    rule(['create', 'get', 'list', 'watch'], ['certificates.k8s.io'], ['certificatesigningrequests']),
    rule(['create', 'delete', 'get', 'patch', 'update'], ['coordination.k8s.io'], ['leases']),
    rule(['get'], ['storage.k8s.io'], ['volumeattachments']),
    rule(['get', 'patch', 'update'], [''], ['persistentvolumeclaims/status']),
    rule(['create'], [''], ['serviceaccounts/token']),
    rule(read, ['storage.k8s.io'], ['csidrivers']),
    rule(read, ['storage.k8s.io'], ['csinodes']),
    rule(['create', 'delete', 'get', 'patch', 'update'], ['storage.k8s.io'], ['csinodes']),
    rule(read, ['node.k8s.io'], ['runtimeclasses']),
  ]),
  clusterRole('system:node-bootstrapper', [
    rule(['create', 'get', 'list', 'watch'], ['certificates.k8s.io'], ['certificatesigningrequests']),
  ]),
  clusterRole('system:node-proxier', [
    rule(['list', 'watch'], [''], ['endpoints', 'services']),
    rule(['get', 'list', 'watch'], [''], ['nodes']),
    rule(['create', 'patch', 'update'], ['', 'events.k8s.io'], ['events']),
    rule(['list', 'watch'], ['discovery.k8s.io'], ['endpointslices']),
  ]),
  clusterRole('system:certificates.k8s.io:certificatesigningrequests:nodeclient', [
    rule(['create'], ['certificates.k8s.io'], ['certificatesigningrequests/nodeclient']),
  ]),
  clusterRole('system:certificates.k8s.io:certificatesigningrequests:selfnodeclient', [
    rule(['create'], ['certificates.k8s.io'], ['certificatesigningrequests/selfnodeclient']),
  ]),
  clusterRole('system:certificates.k8s.io:kube-apiserver-client-approver', [
    rule(['approve'], ['certificates.k8s.io'], ['signers'], ['kubernetes.io/kube-apiserver-client']),
  ]),
  clusterRole('system:certificates.k8s.io:kube-apiserver-client-kubelet-approver', [
    rule(['approve'], ['certificates.k8s.io'], ['signers'], ['kubernetes.io/kube-apiserver-client-kubelet']),
  ]),
  clusterRole('system:certificates.k8s.io:kubelet-serving-approver', [
    rule(['approve'], ['certificates.k8s.io'], ['signers'], ['kubernetes.io/kubelet-serving']),
  ]),
  clusterRole('system:certificates.k8s.io:legacy-unknown-approver', [
    rule(['approve'], ['certificates.k8s.io'], ['signers'], ['kubernetes.io/legacy-unknown']),
  ]),
];

export const defaultClusterRoleBindings: KubeObject[] = [
  clusterBinding('cluster-admin', [group('system:masters')]),
  clusterBinding('system:basic-user', [group('system:authenticated')]),
  clusterBinding('system:discovery', [group('system:authenticated')]),
  clusterBinding('system:public-info-viewer', [
    group('system:authenticated'),
    group('system:unauthenticated'),
  ]),
  clusterBinding('system:monitoring', [group('system:monitoring')]),
  clusterBinding('system:service-account-issuer-discovery', [group('system:serviceaccounts')]),
  clusterBinding('system:node-proxier', [user('system:kube-proxy')]),
  // kept without subjects since the Node authorizer took over (kube's tightening reconciliation)
  clusterBinding('system:node', []),
];

/** kube-system's reader of the authentication ConfigMap, and who it is bound to. */
export const defaultRoles: KubeObject[] = [
  {
    apiVersion: API_VERSION,
    kind: 'Role',
    metadata: meta('extension-apiserver-authentication-reader', {}, 'kube-system'),
    rules: [rule(['get', 'list', 'watch'], [''], ['configmaps'], ['extension-apiserver-authentication'])],
  },
];

export const defaultRoleBindings: KubeObject[] = [
  {
    apiVersion: API_VERSION,
    kind: 'RoleBinding',
    metadata: meta('system::extension-apiserver-authentication-reader', {}, 'kube-system'),
    roleRef: { apiGroup: RBAC, kind: 'Role', name: 'extension-apiserver-authentication-reader' },
    subjects: [user('system:kube-controller-manager'), user('system:kube-scheduler')],
  },
];
