/**
 * The Node labels a kubelet may not set, change or remove on its own Node (NodeRestriction): anything under
 * node-restriction.kubernetes.io/, and kubernetes.io / k8s.io labels other than the kubelet's own (kube's
 * kubeletapis.IsKubeletLabel: a fixed list and the kubelet.kubernetes.io and node.kubernetes.io domains).
 * Labels outside those domains are the node's to choose.
 */

const KUBELET_LABELS = new Set([
  'kubernetes.io/hostname',
  'failure-domain.beta.kubernetes.io/zone',
  'failure-domain.beta.kubernetes.io/region',
  'beta.kubernetes.io/instance-type',
  'kubernetes.io/os',
  'kubernetes.io/arch',
  'beta.kubernetes.io/os',
  'beta.kubernetes.io/arch',
  'topology.kubernetes.io/zone',
  'topology.kubernetes.io/region',
  'node.kubernetes.io/instance-type',
]);
const KUBELET_DOMAINS = ['kubelet.kubernetes.io', 'node.kubernetes.io'];
const RESTRICTED_DOMAIN = 'node-restriction.kubernetes.io';

const domainOf = (key: string): string => {
  const slash = key.indexOf('/');
  return slash < 0 ? '' : key.slice(0, slash);
};
const inDomain = (domain: string, of: string): boolean => domain === of || domain.endsWith(`.${of}`);

const isKubernetesLabel = (key: string): boolean =>
  inDomain(domainOf(key), 'kubernetes.io') || inDomain(domainOf(key), 'k8s.io');

export function isKubeletLabel(key: string): boolean {
  if (KUBELET_LABELS.has(key)) return true;
  const domain = domainOf(key);
  return KUBELET_DOMAINS.some((d) => inDomain(domain, d));
}

/** The keys added, removed or changed between two label maps. */
function modifiedLabels(now: Record<string, string>, old: Record<string, string>): Set<string> {
  const modified = new Set<string>();
  for (const [k, v] of Object.entries(now)) if (old[k] !== v) modified.add(k);
  for (const [k, v] of Object.entries(old)) if (now[k] !== v) modified.add(k);
  return modified;
}

/** The forbidden keys among those modified, sorted (kube lists them so). */
export function forbiddenNodeLabels(
  now: Record<string, string> | undefined,
  old: Record<string, string> | undefined,
): string[] {
  const forbidden: string[] = [];
  for (const key of modifiedLabels(now ?? {}, old ?? {})) {
    if (inDomain(domainOf(key), RESTRICTED_DOMAIN) || (isKubernetesLabel(key) && !isKubeletLabel(key)))
      forbidden.push(key);
  }
  return forbidden.sort();
}
