/**
 * The priorities kube-apiserver gives the APIServices of the group/versions it serves itself
 * (apiVersionPriorities), and the one every CRD group/version gets (its crdregistration controller).
 */
export interface ApiServicePriority {
  groupPriorityMinimum: number;
  versionPriority: number;
}

/** by group, then version: [groupPriorityMinimum, versionPriority] */
const builtin: Record<string, Record<string, [number, number]>> = {
  '': { v1: [18000, 1] },
  apps: { v1: [17800, 15] },
  'events.k8s.io': { v1: [17750, 15], v1beta1: [17750, 5] },
  'authentication.k8s.io': { v1: [17700, 15], v1beta1: [17700, 9], v1alpha1: [17700, 1] },
  'authorization.k8s.io': { v1: [17600, 15] },
  autoscaling: { v1: [17500, 15], v2: [17500, 30], v2beta1: [17500, 9], v2beta2: [17500, 1] },
  batch: { v1: [17400, 15], v1beta1: [17400, 9], v2alpha1: [17400, 9] },
  'certificates.k8s.io': { v1: [17300, 15], v1beta1: [17300, 9], v1alpha1: [17300, 1] },
  'networking.k8s.io': { v1: [17200, 15], v1beta1: [17200, 9], v1alpha1: [17200, 1] },
  policy: { v1: [17100, 15], v1beta1: [17100, 9] },
  'rbac.authorization.k8s.io': { v1: [17000, 15] },
  'storage.k8s.io': { v1: [16800, 15], v1beta1: [16800, 9], v1alpha1: [16800, 1] },
  'apiextensions.k8s.io': { v1: [16700, 15] },
  'admissionregistration.k8s.io': { v1: [16700, 15], v1beta1: [16700, 12], v1alpha1: [16700, 9] },
  'scheduling.k8s.io': { v1: [16600, 15] },
  'coordination.k8s.io': { v1: [16500, 15], v1alpha2: [16500, 12], v1alpha1: [16500, 9] },
  'node.k8s.io': { v1: [16300, 15], v1beta1: [16300, 9], v1alpha1: [16300, 1] },
  'discovery.k8s.io': { v1: [16200, 15], v1beta1: [16200, 12] },
  'flowcontrol.apiserver.k8s.io': {
    v1: [16100, 21],
    v1beta3: [16100, 18],
    v1beta2: [16100, 15],
    v1beta1: [16100, 12],
    v1alpha1: [16100, 9],
  },
  'internal.apiserver.k8s.io': { v1alpha1: [16000, 9] },
  'resource.k8s.io': { v1alpha3: [15900, 9] },
  'storagemigration.k8s.io': { v1alpha1: [15800, 9] },
};

/**
 * A built-in group/version's priorities, or undefined when kube has none for it: kube then registers no
 * APIService (a stale one could otherwise shadow a CRD of that group/version for good). The aggregator's own
 * group, apiregistration.k8s.io, is such a one: it is served before any APIService is consulted.
 */
export function builtinPriority(group: string, version: string): ApiServicePriority | undefined {
  const versions = Object.hasOwn(builtin, group) ? builtin[group] : {};
  const entry = Object.hasOwn(versions, version) ? versions[version] : undefined;
  return entry && { groupPriorityMinimum: entry[0], versionPriority: entry[1] };
}

/** CRDs rank below every built-in group; their versions sort among themselves by kube's version order. */
export const crdPriority: ApiServicePriority = { groupPriorityMinimum: 1000, versionPriority: 100 };
