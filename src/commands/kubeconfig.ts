/**
 * `pgkube kubeconfig --data-dir DIR --user NAME [--group G]... [--expiration 24h] [--out FILE]`: a kubeconfig
 * for the server of a data dir, with a new client certificate (CN the user, each O a group) signed by the
 * data dir's CA, or by `--client-ca-file` + `--client-ca-key-file` when the server trusts another CA. The
 * server's URL and CA come from the data dir's admin.kubeconfig, which the server writes at every start.
 *
 * With `--exec-service-account NS/NAME` the certificate kubeconfig is written to FILE.credential and FILE's
 * user runs `pgkube credential` with it: kubectl then holds only short-lived tokens of that account.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  kubeconfigCluster,
  kubeconfigYaml,
  type KubeconfigUser,
} from '../../modules/authentication/index.js';
import { ConfigError, parseDuration } from '../config/config.js';
import { readFlagFile } from '../config/flag-values.js';
import { issue, loadSigner, type Signer } from '../pki/certificates.js';
import { PKI_FILES, pkiDir, readDataDirCa } from '../pki/data-dir-ca.js';
import { writePrivateFile } from '../pki/private-files.js';

export interface KubeconfigCommand {
  dataDir: string;
  user: string;
  groups: string[];
  expirationMs: number;
  out?: string;
  clientCaFile?: string;
  clientCaKeyFile?: string;
  execServiceAccount?: string;
}

const DEFAULT_EXPIRATION = '24h';

export const kubeconfigUsage = [
  'usage: pgkube kubeconfig --user NAME [flags]',
  '',
  "  --data-dir DIR             the server's data dir (default ./.pgkube): its address and CA",
  '  --user NAME                the user (certificate common name)',
  '  --group G                  a group (certificate organization); repeat for more',
  `  --expiration D             how long the certificate is valid (default ${DEFAULT_EXPIRATION})`,
  '  --out FILE                 write the kubeconfig here (mode 0600) instead of to stdout',
  "  --client-ca-file F         sign with this CA (the server's --client-ca-file) instead of the data dir's",
  '  --client-ca-key-file F     the key of --client-ca-file',
  '  --exec-service-account NS/NAME',
  '                             the user runs `pgkube credential` for tokens of this service account, with',
  '                             the certificate kubeconfig it writes to FILE.credential (needs --out FILE)',
].join('\n');

const VALUE_FLAGS = [
  'data-dir',
  'user',
  'group',
  'expiration',
  'out',
  'client-ca-file',
  'client-ca-key-file',
  'exec-service-account',
];

export function parseKubeconfigCommand(argv: readonly string[]): KubeconfigCommand | 'help' {
  const values = new Map<string, string[]>();
  const args = [...argv];
  while (args.length > 0) {
    const arg = args.shift()!;
    if (arg === '-h' || arg === '--help') return 'help';
    const match = /^--([a-z-]+)(?:=(.*))?$/s.exec(arg);
    if (!match || !VALUE_FLAGS.includes(match[1])) {
      throw new ConfigError(`unexpected argument "${arg}"\n${kubeconfigUsage}`);
    }
    const value = match[2] ?? args.shift();
    if (value === undefined) throw new ConfigError(`flag needs an argument: --${match[1]}`);
    values.set(match[1], [...(values.get(match[1]) ?? []), value]);
  }
  const one = (name: string): string | undefined => {
    const v = values.get(name);
    if (v && v.length > 1) throw new ConfigError(`--${name} given more than once`);
    return v?.[0];
  };
  const user = one('user');
  if (!user) throw new ConfigError(`--user is required\n${kubeconfigUsage}`);
  const groups = values.get('group') ?? [];
  if (groups.some((g) => g === '')) throw new ConfigError('--group: empty group name');
  const clientCaFile = one('client-ca-file');
  const clientCaKeyFile = one('client-ca-key-file');
  if (Boolean(clientCaFile) !== Boolean(clientCaKeyFile)) {
    throw new ConfigError('--client-ca-file and --client-ca-key-file must be given together');
  }
  const execServiceAccount = one('exec-service-account');
  if (execServiceAccount !== undefined) {
    if (!/^[^/]+\/[^/]+$/.test(execServiceAccount))
      throw new ConfigError('--exec-service-account must be NAMESPACE/NAME');
    if (!one('out'))
      throw new ConfigError(
        '--exec-service-account needs --out FILE (FILE.credential holds the certificate)',
      );
  }
  return {
    dataDir: path.resolve(one('data-dir') ?? '.pgkube'),
    user,
    groups,
    expirationMs: parseDuration(one('expiration') ?? DEFAULT_EXPIRATION, '--expiration'),
    out: one('out'),
    clientCaFile,
    clientCaKeyFile,
    ...(execServiceAccount ? { execServiceAccount } : {}),
  };
}

async function signer(o: KubeconfigCommand): Promise<Signer> {
  if (o.clientCaFile && o.clientCaKeyFile) {
    return loadSigner(
      await readFlagFile('--client-ca-file', o.clientCaFile),
      await readFlagFile('--client-ca-key-file', o.clientCaKeyFile),
      `--client-ca-file ${o.clientCaFile}`,
      `--client-ca-key-file ${o.clientCaKeyFile}`,
    );
  }
  const ca = await readDataDirCa(o.dataDir);
  if (!ca) {
    throw new Error(
      `${path.join(pkiDir(o.dataDir), PKI_FILES.caKey)} not found: start the server with --data-dir ${o.dataDir} first, ` +
        'or sign with --client-ca-file and --client-ca-key-file',
    );
  }
  return loadSigner(ca.cert, ca.key, PKI_FILES.caCert, PKI_FILES.caKey);
}

/** The kubeconfig user: a client certificate (the exec credential plugin variant goes beside it). */
async function certificateUser(o: KubeconfigCommand): Promise<KubeconfigUser> {
  const pair = await issue(await signer(o), {
    commonName: o.user,
    organizations: o.groups,
    usage: 'client',
    notAfter: new Date(Date.now() + o.expirationMs),
  });
  return {
    name: o.user,
    credentials: {
      'client-certificate-data': Buffer.from(pair.cert).toString('base64'),
      'client-key-data': Buffer.from(pair.key).toString('base64'),
    },
  };
}

export async function writeKubeconfig(o: KubeconfigCommand): Promise<string> {
  const adminFile = path.join(o.dataDir, 'admin.kubeconfig');
  let text: string;
  try {
    text = await readFile(adminFile, 'utf8');
  } catch {
    throw new Error(
      `${adminFile} not found: start the server with --data-dir ${o.dataDir} first (it writes its address there)`,
    );
  }
  const cluster = kubeconfigCluster(text);
  if (!cluster?.caPem)
    throw new Error(`${adminFile}: no cluster with a server and certificate-authority-data`);
  const certificate = kubeconfigYaml({
    server: cluster.server,
    caPem: cluster.caPem,
    user: await certificateUser(o),
  });
  if (!o.out) return certificate;
  const out = path.resolve(o.out);
  if (!o.execServiceAccount) {
    await writePrivateFile(out, certificate);
    return certificate;
  }
  await writePrivateFile(`${out}.credential`, certificate);
  const yaml = kubeconfigYaml({
    server: cluster.server,
    caPem: cluster.caPem,
    user: execUser(o.execServiceAccount, `${out}.credential`),
  });
  await writePrivateFile(out, yaml);
  return yaml;
}

/** A user that runs this pgkube's `credential` command (absolute paths: kubectl's PATH may not have pgkube). */
function execUser(serviceAccount: string, credentialFile: string): KubeconfigUser {
  const main = fileURLToPath(new URL('../main.js', import.meta.url));
  return {
    name: serviceAccount.replace('/', ':'),
    credentials: {
      exec: {
        apiVersion: 'client.authentication.k8s.io/v1',
        command: process.execPath,
        args: [main, 'credential', '--kubeconfig', credentialFile, '--service-account', serviceAccount],
        interactiveMode: 'Never',
        provideClusterInfo: false,
      },
    },
  };
}

/** The CLI: parse errors exit 2, others 1, each naming what to fix. */
export async function kubeconfigCommand(argv: readonly string[]): Promise<void> {
  let options: KubeconfigCommand | 'help';
  try {
    options = parseKubeconfigCommand(argv);
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    console.error(`pgkube kubeconfig: ${e.message}`);
    process.exit(2);
  }
  if (options === 'help') {
    console.log(kubeconfigUsage);
    return;
  }
  const yaml = await writeKubeconfig(options);
  if (!options.out) process.stdout.write(yaml);
}
