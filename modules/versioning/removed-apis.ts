/**
 * API versions Kubernetes no longer serves (spec part2 "Versions no longer served"). A request to one answers
 * 404 like any unknown path, but the Status message names what replaced it, which kube itself does not say.
 */
import { ApiError } from '../api/index.js';

interface RemovedApi {
  group: string;
  version: string;
  /** one resource of the group-version; absent: the whole group-version is gone */
  resource?: string;
  /** the kind, for resource entries */
  kind?: string;
  removedIn: string;
  /** what to use instead, e.g. "batch/v1 CronJob" */
  use: string;
}

const FC = 'flowcontrol.apiserver.k8s.io';

const table: RemovedApi[] = [
  { group: FC, version: 'v1beta3', removedIn: '1.32', use: `${FC}/v1` },
  { group: FC, version: 'v1beta2', removedIn: '1.29', use: `${FC}/v1` },
  { group: FC, version: 'v1beta1', removedIn: '1.26', use: `${FC}/v1` },
  {
    group: 'storage.k8s.io',
    version: 'v1beta1',
    resource: 'csistoragecapacities',
    kind: 'CSIStorageCapacity',
    removedIn: '1.27',
    use: 'storage.k8s.io/v1 CSIStorageCapacity',
  },
  { group: 'autoscaling', version: 'v2beta2', removedIn: '1.26', use: 'autoscaling/v2' },
  { group: 'autoscaling', version: 'v2beta1', removedIn: '1.25', use: 'autoscaling/v2' },
  { group: 'batch', version: 'v1beta1', removedIn: '1.25', use: 'batch/v1' },
  { group: 'discovery.k8s.io', version: 'v1beta1', removedIn: '1.25', use: 'discovery.k8s.io/v1' },
  { group: 'events.k8s.io', version: 'v1beta1', removedIn: '1.25', use: 'events.k8s.io/v1' },
  { group: 'policy', version: 'v1beta1', removedIn: '1.25', use: 'policy/v1' },
  {
    group: 'policy',
    version: 'v1beta1',
    resource: 'podsecuritypolicies',
    kind: 'PodSecurityPolicy',
    removedIn: '1.25',
    use: 'Pod Security Admission',
  },
  {
    group: 'node.k8s.io',
    version: 'v1beta1',
    resource: 'runtimeclasses',
    kind: 'RuntimeClass',
    removedIn: '1.25',
    use: 'node.k8s.io/v1 RuntimeClass',
  },
  ...['mutatingwebhookconfigurations', 'validatingwebhookconfigurations'].map((resource) => ({
    group: 'admissionregistration.k8s.io',
    version: 'v1beta1',
    resource,
    removedIn: '1.22',
    use: 'admissionregistration.k8s.io/v1',
  })),
  { group: 'apiextensions.k8s.io', version: 'v1beta1', removedIn: '1.22', use: 'apiextensions.k8s.io/v1' },
  {
    group: 'apiregistration.k8s.io',
    version: 'v1beta1',
    removedIn: '1.22',
    use: 'apiregistration.k8s.io/v1',
  },
  {
    group: 'authentication.k8s.io',
    version: 'v1beta1',
    resource: 'tokenreviews',
    kind: 'TokenReview',
    removedIn: '1.22',
    use: 'authentication.k8s.io/v1 TokenReview',
  },
  { group: 'authorization.k8s.io', version: 'v1beta1', removedIn: '1.22', use: 'authorization.k8s.io/v1' },
  {
    group: 'certificates.k8s.io',
    version: 'v1beta1',
    resource: 'certificatesigningrequests',
    kind: 'CertificateSigningRequest',
    removedIn: '1.22',
    use: 'certificates.k8s.io/v1 CertificateSigningRequest',
  },
  {
    group: 'coordination.k8s.io',
    version: 'v1beta1',
    resource: 'leases',
    kind: 'Lease',
    removedIn: '1.22',
    use: 'coordination.k8s.io/v1 Lease',
  },
  ...[
    ['ingresses', 'Ingress'],
    ['ingressclasses', 'IngressClass'],
  ].map(([resource, kind]) => ({
    group: 'networking.k8s.io',
    version: 'v1beta1',
    resource,
    kind,
    removedIn: '1.22',
    use: `networking.k8s.io/v1 ${kind}`,
  })),
  {
    group: 'rbac.authorization.k8s.io',
    version: 'v1beta1',
    removedIn: '1.22',
    use: 'rbac.authorization.k8s.io/v1',
  },
  { group: 'scheduling.k8s.io', version: 'v1beta1', removedIn: '1.22', use: 'scheduling.k8s.io/v1' },
  ...[
    ['csidrivers', 'CSIDriver'],
    ['csinodes', 'CSINode'],
    ['storageclasses', 'StorageClass'],
    ['volumeattachments', 'VolumeAttachment'],
  ].map(([resource, kind]) => ({
    group: 'storage.k8s.io',
    version: 'v1beta1',
    resource,
    kind,
    removedIn: '1.22',
    use: `storage.k8s.io/v1 ${kind}`,
  })),
  // extensions/v1beta1 lost its last kind (Ingress) in 1.22; each kind had moved elsewhere
  {
    group: 'extensions',
    version: 'v1beta1',
    removedIn: '1.22',
    use: 'apps/v1, networking.k8s.io/v1 and policy/v1',
  },
  ...[
    ['ingresses', 'Ingress', '1.22', 'networking.k8s.io/v1 Ingress'],
    ['networkpolicies', 'NetworkPolicy', '1.16', 'networking.k8s.io/v1 NetworkPolicy'],
    ['daemonsets', 'DaemonSet', '1.16', 'apps/v1 DaemonSet'],
    ['deployments', 'Deployment', '1.16', 'apps/v1 Deployment'],
    ['replicasets', 'ReplicaSet', '1.16', 'apps/v1 ReplicaSet'],
    ['podsecuritypolicies', 'PodSecurityPolicy', '1.16', 'Pod Security Admission'],
  ].map(([resource, kind, removedIn, use]) => ({
    group: 'extensions',
    version: 'v1beta1',
    resource,
    kind,
    removedIn,
    use,
  })),
  { group: 'apps', version: 'v1beta1', removedIn: '1.16', use: 'apps/v1' },
  { group: 'apps', version: 'v1beta2', removedIn: '1.16', use: 'apps/v1' },
];

function describe(api: RemovedApi): string {
  const gv = `${api.group}/${api.version}`;
  const what = api.kind ? `${gv} ${api.kind}` : api.resource ? `${gv} ${api.resource}` : gv;
  return `${what} is no longer served since v${api.removedIn}; use ${api.use}`;
}

/**
 * Why nothing serves `group/version[/resource]`, when Kubernetes removed it; undefined otherwise. A
 * group-version path (discovery) only matches an entry for the whole group-version.
 */
export function noLongerServed(group: string, version: string, resource?: string): string | undefined {
  const match =
    (resource !== undefined &&
      table.find((a) => a.group === group && a.version === version && a.resource === resource)) ||
    table.find((a) => a.group === group && a.version === version && a.resource === undefined);
  return match ? describe(match) : undefined;
}

/** The 404 for a path nothing serves, naming the replacement when Kubernetes removed what was asked for. */
export function notServedError(group: string, version: string, resource?: string): ApiError {
  const removed = noLongerServed(group, version, resource);
  return removed
    ? ApiError.pathNotFound(`the server could not find the requested resource: ${removed}`)
    : ApiError.pathNotFound();
}
