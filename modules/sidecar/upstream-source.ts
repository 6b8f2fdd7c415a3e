/**
 * Where a sidecar's upstream cluster is, as its flags name it: a kubeconfig (--upstream-kubeconfig) or the
 * Pod's own service account (--upstream-in-cluster: KUBERNETES_SERVICE_HOST/PORT, read once with the other flags,
 * and the token and CA that kubelet mounts, as client-go's InClusterConfig reads them). Read at start: a file
 * that does not read stops the start, naming its flag. The token file is read again as it rotates.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileToken, readWebhookKubeconfig, type WebhookConnection } from '../webhook/index.js';

/** where kubelet mounts a Pod's service account token and the cluster's CA */
export const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

export type UpstreamSource =
  { kubeconfig: string } | { inCluster: { host: string; port: string; serviceAccountDir: string } };

function hostPort(host: string, port: string): string {
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}

async function inCluster(
  where: Extract<UpstreamSource, { inCluster: unknown }>['inCluster'],
): Promise<WebhookConnection> {
  const tokenFile = path.join(where.serviceAccountDir, 'token');
  // read now so that a Pod without its token stops at start, as InClusterConfig fails
  fileToken(tokenFile);
  return {
    url: new URL(`https://${hostPort(where.host, where.port)}`),
    ca: await readFile(path.join(where.serviceAccountDir, 'ca.crt'), 'utf8'),
    insecureSkipTlsVerify: false,
    tokenFile,
  };
}

/** The upstream's address and this server's credentials there; errors name the flag. */
export async function readUpstream(source: UpstreamSource): Promise<WebhookConnection> {
  const flag = 'kubeconfig' in source ? '--upstream-kubeconfig' : '--upstream-in-cluster';
  let connection: WebhookConnection;
  try {
    connection =
      'kubeconfig' in source
        ? await readWebhookKubeconfig(source.kubeconfig)
        : await inCluster(source.inCluster);
  } catch (e) {
    throw new Error(`${flag}: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (connection.url.protocol !== 'https:')
    throw new Error(`${flag}: the upstream must be reached over https, not ${connection.url.href}`);
  return connection;
}
