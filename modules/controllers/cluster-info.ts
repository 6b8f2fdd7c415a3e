/**
 * `kube-public/cluster-info`: what a joining client reads, unauthenticated, to find and trust the server.
 * kubeadm writes it; a standalone pgkube has no kubeadm, so the bootstrap signer creates it when absent.
 */
import type { KubeObject } from '../api/index.js';

export const CLUSTER_INFO_NAMESPACE = 'kube-public';
export const CLUSTER_INFO_NAME = 'cluster-info';
export const KUBECONFIG_KEY = 'kubeconfig';
export const SIGNATURE_PREFIX = 'jws-kubeconfig-';

/** The URL clients reach this server at and the CA (PEM) they trust it by: known once it listens. */
export interface ClusterEndpoint {
  server: string;
  ca: string;
}

/**
 * The kubeconfig as kubeadm writes it (clientcmd.Write of a Config holding one cluster named ""), byte for
 * byte: joining clients verify the signature over exactly this text.
 */
export function clusterInfoKubeconfig(endpoint: ClusterEndpoint): string {
  return [
    'apiVersion: v1',
    'clusters:',
    '- cluster:',
    `    certificate-authority-data: ${Buffer.from(endpoint.ca).toString('base64')}`,
    `    server: ${endpoint.server}`,
    '  name: ""',
    'contexts: null',
    'current-context: ""',
    'kind: Config',
    'preferences: {}',
    'users: null',
    '',
  ].join('\n');
}

export function clusterInfoConfigMap(endpoint: ClusterEndpoint): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: CLUSTER_INFO_NAME, namespace: CLUSTER_INFO_NAMESPACE },
    data: { [KUBECONFIG_KEY]: clusterInfoKubeconfig(endpoint) },
  };
}
