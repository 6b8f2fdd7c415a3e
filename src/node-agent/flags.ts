/**
 * `pgkube node-agent` flags, named and read as the kubelet's: `--name=value` or `--name value`, booleans alone,
 * `_` and `-` alike. Some only the command line has (--kubeconfig, --root-dir, ...); the others set a
 * KubeletConfiguration field and, when given, win over the --config file and the --config-dir drop-ins (kube's
 * flag precedence). They are returned as that layer: a partial v1beta1 document.
 */
import { isIP } from 'node:net';
import path from 'node:path';
import { boolean, ConfigError } from '../config/flag-values.js';
import { goDurationMs } from './config-duration.js';
import type { Json } from './config-merge.js';

/** What only the command line says. */
export interface NodeAgentFlags {
  kubeconfig?: string;
  bootstrapKubeconfig?: string;
  hostnameOverride?: string;
  rootDir: string;
  certDir?: string;
  config?: string;
  configDir?: string;
  nodeIps: string[];
}

type Layer = { [key: string]: Json };

interface ConfigFlag {
  /** the KubeletConfiguration field it sets */
  path: string[];
  read: (value: string, flag: string) => Json;
  bool?: true;
  help: string;
}

const text = (v: string) => v;
const int32 = (v: string, flag: string) => {
  if (!/^[+-]?\d+$/.test(v) || Math.abs(Number(v)) >= 2 ** 31)
    throw new ConfigError(`invalid argument "${v}" for "${flag}" flag: not an int32`);
  return Number(v);
};
const duration = (v: string, flag: string) => {
  if (goDurationMs(v) === undefined)
    throw new ConfigError(`invalid argument "${v}" for "${flag}" flag: time: invalid duration "${v}"`);
  return v;
};

/** `Name=bool,...`: several uses add up, a later value of a gate wins (kube's map flag) */
function featureGates(v: string, flag: string): Json {
  const gates: { [key: string]: Json } = {};
  for (const item of v.split(',')) {
    if (item.trim() === '') continue;
    const eq = item.indexOf('=');
    const key = (eq < 0 ? item : item.slice(0, eq)).trim();
    if (eq < 0)
      throw new ConfigError(`invalid argument "${v}" for "${flag}" flag: missing bool value for ${key}`);
    const raw = item.slice(eq + 1).trim();
    try {
      gates[key] = boolean(raw, flag);
    } catch {
      throw new ConfigError(
        `invalid argument "${v}" for "${flag}" flag: invalid value of ${key}=${raw}, err: strconv.ParseBool: parsing ${JSON.stringify(raw)}: invalid syntax`,
      );
    }
  }
  return gates;
}

const configFlags: Record<string, ConfigFlag> = {
  address: { path: ['address'], read: text, help: 'IP address to serve on (default 0.0.0.0)' },
  port: { path: ['port'], read: int32, help: 'HTTPS port (default 10250)' },
  'anonymous-auth': {
    path: ['authentication', 'anonymous', 'enabled'],
    read: boolean,
    bool: true,
    help: 'anonymous requests to the HTTPS port (default false, as the config file API)',
  },
  'authentication-token-webhook': {
    path: ['authentication', 'webhook', 'enabled'],
    read: boolean,
    bool: true,
    help: 'bearer tokens checked by a TokenReview to the API server (default true)',
  },
  'authentication-token-webhook-cache-ttl': {
    path: ['authentication', 'webhook', 'cacheTTL'],
    read: duration,
    help: 'how long TokenReview answers are kept (default 2m0s)',
  },
  'authorization-mode': {
    path: ['authorization', 'mode'],
    read: text,
    help: 'AlwaysAllow or Webhook (SubjectAccessReview to the API server; default Webhook)',
  },
  'authorization-webhook-cache-authorized-ttl': {
    path: ['authorization', 'webhook', 'cacheAuthorizedTTL'],
    read: duration,
    help: 'how long allowed answers are kept (default 5m0s)',
  },
  'authorization-webhook-cache-unauthorized-ttl': {
    path: ['authorization', 'webhook', 'cacheUnauthorizedTTL'],
    read: duration,
    help: 'how long denied answers are kept (default 30s)',
  },
  'client-ca-file': {
    path: ['authentication', 'x509', 'clientCAFile'],
    read: text,
    help: 'CA bundle (PEM) that client certificates must chain to; CN is the user, O the groups',
  },
  'tls-cert-file': {
    path: ['tlsCertFile'],
    read: text,
    help: 'serving certificate (PEM); unset: a self-signed one in --cert-dir',
  },
  'tls-private-key-file': { path: ['tlsPrivateKeyFile'], read: text, help: 'its key (PEM)' },
  'feature-gates': {
    path: ['featureGates'],
    read: featureGates,
    help: 'Name=true|false,... (ContainerCheckpoint: beta, default true)',
  },
  'max-pods': { path: ['maxPods'], read: int32, help: 'most Pods on this node (default 110)' },
  'node-status-update-frequency': {
    path: ['nodeStatusUpdateFrequency'],
    read: duration,
    help: 'how often the node status is computed (default 10s)',
  },
  'container-runtime-endpoint': {
    path: ['containerRuntimeEndpoint'],
    read: text,
    help: 'CRI runtime socket (unix:///path or /path); unset: the simulated runtime',
  },
  'runtime-request-timeout': {
    path: ['runtimeRequestTimeout'],
    read: duration,
    help: 'CRI call timeout, and the least a checkpoint may take (default 2m0s)',
  },
};

const commandLineFlags: Record<string, { key: keyof NodeAgentFlags; help: string }> = {
  kubeconfig: {
    key: 'kubeconfig',
    help: 'kubeconfig of the API server (the agent reports and reviews there)',
  },
  'bootstrap-kubeconfig': {
    key: 'bootstrapKubeconfig',
    help: 'kubeconfig with a bootstrap token, used when --kubeconfig does not exist yet',
  },
  'hostname-override': { key: 'hostnameOverride', help: 'the node name (default: the host name)' },
  'root-dir': { key: 'rootDir', help: 'state directory (default /var/lib/kubelet)' },
  'cert-dir': {
    key: 'certDir',
    help: 'where the self-signed serving certificate goes (default <root-dir>/pki)',
  },
  config: { key: 'config', help: 'KubeletConfiguration file (kubelet.config.k8s.io/v1beta1, YAML or JSON)' },
  'config-dir': { key: 'configDir', help: '*.conf KubeletConfiguration drop-ins, merged in lexical order' },
  'node-ip': { key: 'nodeIps', help: 'the node IP, or an IPv4 and an IPv6 address, comma-separated' },
};

export const nodeAgentUsage = [
  'usage: pgkube node-agent [flags]',
  '',
  ...[...Object.entries(commandLineFlags), ...Object.entries(configFlags)].map(
    ([name, spec]) => `  --${name.padEnd(44)} ${spec.help}`,
  ),
].join('\n');

/** --node-ip: one address, or one of each family (kube's dual-stack rule) */
function nodeIps(v: string): string[] {
  const ips = v.split(',').map((i) => i.trim());
  if (ips.some((ip) => !isIP(ip)))
    throw new ConfigError(`--node-ip: "${v}" must be an IP address or a comma-separated pair of them`);
  if (ips.length > 2 || (ips.length === 2 && isIP(ips[0]) === isIP(ips[1])))
    throw new ConfigError(`--node-ip: "${v}" must be at most one IPv4 and one IPv6 address`);
  return ips;
}

export interface ParsedFlags {
  flags: NodeAgentFlags;
  /** the KubeletConfiguration fields the command line set: laid over the files at the end */
  layer: Layer;
  help: boolean;
}

function setAt(layer: Layer, keys: readonly string[], value: Json): void {
  let at = layer;
  for (const k of keys.slice(0, -1)) at = (at[k] ??= {}) as Layer;
  const last = keys.at(-1)!;
  const old = at[last];
  // repeated --feature-gates add up; any other flag given twice: the last wins
  at[last] =
    typeof old === 'object' && old !== null && typeof value === 'object' && value !== null
      ? { ...(old as Layer), ...(value as Layer) }
      : value;
}

export function parseNodeAgentFlags(argv: readonly string[]): ParsedFlags {
  const flags: NodeAgentFlags = { rootDir: '/var/lib/kubelet', nodeIps: [] };
  const layer: Layer = {};
  const args = [...argv];
  while (args.length > 0) {
    const arg = args.shift()!;
    if (arg === '-h' || arg === '--help') return { flags, layer, help: true };
    const match = /^--?([A-Za-z0-9_-]+)(?:=(.*))?$/s.exec(arg);
    if (!match) throw new ConfigError(`unknown command "${arg}" for node-agent\n${nodeAgentUsage}`);
    // pflag's WordSepNormalizeFunc: --root_dir is --root-dir
    const name = match[1].replaceAll('_', '-');
    const configFlag = configFlags[name];
    const lineFlag = commandLineFlags[name];
    if (!configFlag && !lineFlag) throw new ConfigError(`unknown flag: --${name}\n${nodeAgentUsage}`);
    const value = match[2] ?? (configFlag?.bool ? 'true' : args.shift());
    if (value === undefined) throw new ConfigError(`flag needs an argument: --${name}`);
    if (configFlag) {
      setAt(layer, configFlag.path, configFlag.read(value, `--${name}`));
    } else if (lineFlag.key === 'nodeIps') {
      flags.nodeIps = nodeIps(value);
    } else if (lineFlag.key === 'rootDir' || lineFlag.key === 'certDir') {
      flags[lineFlag.key] = path.resolve(value);
    } else {
      flags[lineFlag.key] = value;
    }
  }
  return { flags, layer, help: false };
}
