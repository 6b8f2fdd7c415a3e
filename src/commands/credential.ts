/**
 * `pgkube credential --kubeconfig FILE --service-account NAMESPACE/NAME [--audience A]... [--expiration 1h]`:
 * a client-go exec credential plugin. With the long-lived credential of FILE (a client certificate or a
 * token) it asks the server for a short-lived token of the service account (TokenRequest) and prints it as
 * the ExecCredential version kubectl asked for in KUBERNETES_EXEC_INFO. It never prompts: a FILE without a
 * credential is an error, interactive or not.
 */
import { request as httpsRequest } from 'node:https';
import { request as httpRequest } from 'node:http';
import { readWebhookKubeconfig, type WebhookConnection } from '../../modules/authentication/index.js';
import { ConfigError, parseDuration } from '../config/config.js';

export interface CredentialCommand {
  kubeconfig: string;
  namespace: string;
  name: string;
  audiences: string[];
  expirationSeconds: number;
}

const EXEC_VERSIONS = ['client.authentication.k8s.io/v1', 'client.authentication.k8s.io/v1beta1'];

export const credentialUsage = [
  'usage: pgkube credential --kubeconfig FILE --service-account NAMESPACE/NAME [flags]',
  '',
  '  --kubeconfig FILE             a kubeconfig with a long-lived credential (client certificate or token)',
  '  --service-account NS/NAME     the service account whose token to print',
  '  --audience A                  an audience of the token; repeat for more (default: the server’s)',
  '  --expiration D                how long the token lives (default 1h; at least 10m)',
].join('\n');

export function parseCredentialCommand(argv: readonly string[]): CredentialCommand | 'help' {
  const values = new Map<string, string[]>();
  const args = [...argv];
  while (args.length > 0) {
    const arg = args.shift()!;
    if (arg === '-h' || arg === '--help') return 'help';
    const match = /^--(kubeconfig|service-account|audience|expiration)(?:=(.*))?$/s.exec(arg);
    if (!match) throw new ConfigError(`credential: unexpected argument "${arg}"\n${credentialUsage}`);
    const value = match[2] ?? args.shift();
    if (value === undefined) throw new ConfigError(`credential: flag needs an argument: --${match[1]}`);
    values.set(match[1], [...(values.get(match[1]) ?? []), value]);
  }
  const kubeconfig = values.get('kubeconfig')?.at(-1);
  if (!kubeconfig) throw new ConfigError('credential: --kubeconfig is required');
  const account = values.get('service-account')?.at(-1) ?? '';
  const [namespace, name, ...rest] = account.split('/');
  if (!namespace || !name || rest.length > 0)
    throw new ConfigError('credential: --service-account must be NAMESPACE/NAME');
  const expirationMs = parseDuration(values.get('expiration')?.at(-1) ?? '1h', '--expiration');
  if (expirationMs < 600_000) throw new ConfigError('credential: --expiration must be at least 10m');
  return {
    kubeconfig,
    namespace,
    name,
    audiences: values.get('audience') ?? [],
    expirationSeconds: Math.floor(expirationMs / 1000),
  };
}

/** The ExecCredential version kubectl asked for (KUBERNETES_EXEC_INFO), v1beta1 when it did not say. */
export function execCredentialVersion(execInfo: string | undefined): string {
  if (!execInfo) return EXEC_VERSIONS[1];
  let info: { apiVersion?: unknown };
  try {
    info = JSON.parse(execInfo) as { apiVersion?: unknown };
  } catch {
    throw new Error('KUBERNETES_EXEC_INFO is not JSON');
  }
  if (typeof info.apiVersion !== 'string' || !EXEC_VERSIONS.includes(info.apiVersion))
    throw new Error(
      `KUBERNETES_EXEC_INFO asks for an unsupported version ${JSON.stringify(info.apiVersion)}`,
    );
  return info.apiVersion;
}

function post(
  connection: WebhookConnection,
  path: string,
  body: string,
): Promise<{ status: number; body: string }> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json',
    'content-length': String(Buffer.byteLength(body)),
  };
  if (connection.token) headers.authorization = `Bearer ${connection.token}`;
  else if (connection.basic)
    headers.authorization = `Basic ${Buffer.from(`${connection.basic.username}:${connection.basic.password}`).toString('base64')}`;
  const url = new URL(
    path.replace(/^\//, ''),
    connection.url.href.endsWith('/') ? connection.url : `${connection.url.href}/`,
  );
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      url,
      {
        method: 'POST',
        headers,
        ca: connection.ca,
        cert: connection.cert,
        key: connection.key,
        servername: connection.serverName,
        rejectUnauthorized: !connection.insecureSkipTlsVerify,
        minVersion: 'TLSv1.2',
        timeout: 30_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
        );
      },
    );
    req.on('timeout', () => req.destroy(new Error('no answer within 30 s')));
    req.on('error', reject);
    req.end(body);
  });
}

/** Runs the plugin: the ExecCredential JSON on success; throws with a message (never the token) otherwise. */
export async function credential(command: CredentialCommand, execInfo: string | undefined): Promise<string> {
  const apiVersion = execCredentialVersion(execInfo);
  const connection = await readWebhookKubeconfig(command.kubeconfig).catch((e: Error) => {
    throw new Error(`${command.kubeconfig}: ${e.message}`);
  });
  if (!connection.token && !connection.cert && !connection.basic)
    throw new Error(`${command.kubeconfig} holds no credential, and pgkube credential never prompts`);
  const spec: Record<string, unknown> = { expirationSeconds: command.expirationSeconds };
  if (command.audiences.length > 0) spec.audiences = command.audiences;
  const path =
    `/api/v1/namespaces/${encodeURIComponent(command.namespace)}` +
    `/serviceaccounts/${encodeURIComponent(command.name)}/token`;
  const answer = await post(
    connection,
    path,
    JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec }),
  );
  let parsed: { message?: unknown; status?: { token?: unknown; expirationTimestamp?: unknown } } = {};
  try {
    parsed = JSON.parse(answer.body) as typeof parsed;
  } catch {
    // a non-JSON answer is reported by its status code alone
  }
  if (answer.status !== 201 && answer.status !== 200) {
    const why = typeof parsed.message === 'string' ? `: ${parsed.message}` : '';
    throw new Error(`the server refused the token request (${answer.status})${why}`);
  }
  const token = parsed.status?.token;
  const expires = parsed.status?.expirationTimestamp;
  if (typeof token !== 'string' || typeof expires !== 'string')
    throw new Error('the server answered a TokenRequest without status.token');
  return JSON.stringify({
    kind: 'ExecCredential',
    apiVersion,
    spec: {},
    status: { expirationTimestamp: expires, token },
  });
}

export async function credentialCommand(argv: readonly string[]): Promise<void> {
  const command = parseCredentialCommand(argv);
  if (command === 'help') {
    console.log(credentialUsage);
    return;
  }
  process.stdout.write(`${await credential(command, process.env.KUBERNETES_EXEC_INFO)}\n`);
}
