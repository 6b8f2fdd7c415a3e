/**
 * Kubeconfig files this server hands out: one cluster (its URL and the CA to trust), one user with its
 * credentials (a token, a client certificate, or later an exec plugin), one context that is current.
 */
import { parse, stringify } from 'yaml';

export interface KubeconfigUser {
  name: string;
  /** the kubeconfig `user` entry: `token`, `client-certificate-data` + `client-key-data`, `exec`, ... */
  credentials: Record<string, unknown>;
}

export interface KubeconfigOptions {
  server: string;
  /** PEM of the CA clients trust for the server's certificate */
  caPem: string;
  user: KubeconfigUser;
  /** default: `<user>@pgkube` */
  context?: string;
  namespace?: string;
}

export const CLUSTER_NAME = 'pgkube';

export function kubeconfigYaml(o: KubeconfigOptions): string {
  const context = o.context ?? `${o.user.name}@${CLUSTER_NAME}`;
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name: CLUSTER_NAME,
        cluster: { server: o.server, 'certificate-authority-data': Buffer.from(o.caPem).toString('base64') },
      },
    ],
    users: [{ name: o.user.name, user: o.user.credentials }],
    contexts: [
      {
        name: context,
        context: {
          cluster: CLUSTER_NAME,
          user: o.user.name,
          ...(o.namespace ? { namespace: o.namespace } : {}),
        },
      },
    ],
    'current-context': context,
  });
}

/** The cluster of a kubeconfig: its server URL and the PEM of its CA (undefined when it has none). */
export function kubeconfigCluster(text: string): { server: string; caPem?: string } | undefined {
  let cluster: any;
  try {
    cluster = parse(text)?.clusters?.[0]?.cluster;
  } catch {
    return undefined;
  }
  if (typeof cluster?.server !== 'string') return undefined;
  const ca = cluster['certificate-authority-data'];
  return {
    server: cluster.server,
    caPem: typeof ca === 'string' ? Buffer.from(ca, 'base64').toString('utf8') : undefined,
  };
}
