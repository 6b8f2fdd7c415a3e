/**
 * A webhook's kubeconfig (--authentication-token-webhook-config-file, --authorization-webhook-config-file),
 * read as client-go reads one for kube's webhooks: the current context's cluster (server, certificate-authority(-data),
 * insecure-skip-tls-verify, tls-server-name) and user (client-certificate(-data) + client-key(-data), token or
 * tokenFile, username + password). Relative file names are relative to the kubeconfig. Anything that would
 * change where or how the call goes and is not read here (exec, auth-provider, proxy-url) refuses the file.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';
import { isPlainObject } from '../api/index.js';
import { fileToken } from './token-file.js';

/** Where the webhook is and how to reach it, every file already read. */
export interface WebhookConnection {
  url: URL;
  /** PEM CA bundle the webhook's certificate must chain to; unset: the system's roots */
  ca?: string;
  insecureSkipTlsVerify: boolean;
  /** the name checked in the webhook's certificate, when not the URL's host */
  serverName?: string;
  /** PEM client certificate and key, presented to the webhook */
  cert?: string;
  key?: string;
  /** sent as `Authorization: Bearer` */
  token?: string;
  /** a file holding the bearer token, read again as it rotates (in-cluster: the service account's token) */
  tokenFile?: string;
  /** sent as `Authorization: Basic` */
  basic?: { username: string; password: string };
}

type Entries = Record<string, unknown>;

/** `name` → entry of a kubeconfig list (`clusters`, `users`, `contexts`), each `{name, <field>: {...}}`. */
function named(config: Entries, list: string, field: string, name: string): Entries | undefined {
  const items = Array.isArray(config[list]) ? config[list] : [];
  const found = items.find((i): i is Entries => isPlainObject(i) && i.name === name);
  if (!found) return undefined;
  return isPlainObject(found[field]) ? found[field] : {};
}

function str(entry: Entries, key: string): string | undefined {
  const v = entry[key];
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string') throw new Error(`${key} must be a string`);
  return v;
}

export async function readWebhookKubeconfig(file: string): Promise<WebhookConnection> {
  const dir = path.dirname(path.resolve(file));
  const fromFile = async (name: string) => readFile(path.resolve(dir, name), 'utf8');
  const base64 = (v: string) => Buffer.from(v, 'base64').toString('utf8');

  const raw: unknown = parse(await readFile(file, 'utf8'));
  if (!isPlainObject(raw)) throw new Error('not a kubeconfig');
  const contextName = str(raw, 'current-context');
  if (!contextName) throw new Error('current-context is not set');
  const context = named(raw, 'contexts', 'context', contextName);
  if (!context) throw new Error(`context was not found for specified context: ${contextName}`);
  const clusterName = str(context, 'cluster') ?? '';
  const cluster = named(raw, 'clusters', 'cluster', clusterName);
  if (!cluster) throw new Error(`cluster "${clusterName}" of context "${contextName}" was not found`);
  const userName = str(context, 'user');
  const user = userName === undefined ? {} : named(raw, 'users', 'user', userName);
  if (!user) throw new Error(`user "${userName}" of context "${contextName}" was not found`);

  const server = str(cluster, 'server');
  if (!server) throw new Error('cluster has no server defined');
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    throw new Error(`server ${JSON.stringify(server)} is not a URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new Error(`server ${JSON.stringify(server)} is neither https nor http`);
  for (const key of ['proxy-url'])
    if (cluster[key] !== undefined) throw new Error(`cluster ${key} is not supported for a webhook`);
  for (const key of ['exec', 'auth-provider'])
    if (user[key] !== undefined) throw new Error(`user ${key} is not supported for a webhook`);

  const caData = str(cluster, 'certificate-authority-data');
  const caFile = str(cluster, 'certificate-authority');
  const certData = str(user, 'client-certificate-data');
  const certFile = str(user, 'client-certificate');
  const keyData = str(user, 'client-key-data');
  const keyFile = str(user, 'client-key');
  const tokenFile = str(user, 'tokenFile');
  const username = str(user, 'username');
  const connection: WebhookConnection = {
    url,
    ca: caData ? base64(caData) : caFile ? await fromFile(caFile) : undefined,
    insecureSkipTlsVerify: cluster['insecure-skip-tls-verify'] === true,
    serverName: str(cluster, 'tls-server-name'),
    cert: certData ? base64(certData) : certFile ? await fromFile(certFile) : undefined,
    key: keyData ? base64(keyData) : keyFile ? await fromFile(keyFile) : undefined,
    token: str(user, 'token'),
    // read now (a missing file stops the start), then followed as it rotates
    tokenFile: str(user, 'token') === undefined && tokenFile ? path.resolve(dir, tokenFile) : undefined,
    basic: username ? { username, password: str(user, 'password') ?? '' } : undefined,
  };
  if (Boolean(connection.cert) !== Boolean(connection.key))
    throw new Error('client-certificate and client-key must be given together');
  if (connection.insecureSkipTlsVerify && connection.ca)
    throw new Error('specifying a root certificates file with the insecure flag is not allowed');
  if (connection.tokenFile) fileToken(connection.tokenFile);
  if ((connection.token || connection.tokenFile) && connection.basic)
    throw new Error('username/password or bearer token may be set, but not both');
  return connection;
}
