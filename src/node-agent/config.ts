/**
 * The node agent's configuration, made once at start as the kubelet makes it: v1beta1 defaults, then the
 * --config file, then the --config-dir drop-ins (every `*.conf` file, subdirectories included, in lexical
 * order, each merged onto the result: config-merge.ts), then the KubeletConfiguration flags given on the
 * command line, which win (feature gates per gate). The result is checked and typed; nothing else reads flags or
 * files.
 */
import { readdir, readFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { FlagError, parseFeatureGates, type FeatureGates } from '../../modules/versioning/index.js';
import { ConfigError } from '../config/flag-values.js';
import { goDurationMs } from './config-duration.js';
import {
  decodeKubeletConfiguration,
  KubeletConfigError,
  withDefaults,
  type DecodedConfig,
} from './config-file.js';
import { mergeConfig, type Json } from './config-merge.js';
import { parseNodeAgentFlags, type NodeAgentFlags } from './flags.js';

export { ConfigError };

export type AuthorizationMode = 'Webhook' | 'AlwaysAllow';

/** The KubeletConfiguration fields the agent uses, defaulted and checked. */
export interface KubeletSettings {
  address: string;
  port: number;
  tlsCertFile?: string;
  tlsPrivateKeyFile?: string;
  authentication: {
    anonymous: boolean;
    webhook: boolean;
    webhookCacheTtlMs: number;
    clientCaFile?: string;
  };
  authorization: {
    mode: AuthorizationMode;
    cacheAuthorizedTtlMs: number;
    cacheUnauthorizedTtlMs: number;
  };
  nodeStatusUpdateFrequencyMs: number;
  nodeStatusReportFrequencyMs: number;
  nodeLeaseDurationSeconds: number;
  runtimeRequestTimeoutMs: number;
  maxPods: number;
  /** unset: the simulated runtime (the kubelet's default is containerd's socket) */
  containerRuntimeEndpoint?: string;
}

export interface NodeAgentConfig extends Omit<NodeAgentFlags, 'certDir'> {
  /** --hostname-override, else the host name; lower case (kube's GetHostname) */
  nodeName: string;
  /** --cert-dir, default <root-dir>/pki */
  certDir: string;
  kubelet: KubeletSettings;
  featureGates: FeatureGates;
  /** the merged KubeletConfiguration document (v1beta1, defaulted), as the kubelet's /configz would show it */
  document: { [key: string]: Json };
  /** for the log: fields the files named that v1beta1 does not have, deprecated gates */
  warnings: string[];
}

export type ParsedCommand = { help: true } | { help: false; config: NodeAgentConfig };

type JsonObject = { [key: string]: Json };

async function readConfigFile(file: string): Promise<DecodedConfig> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    throw new KubeletConfigError(`${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  return decodeKubeletConfiguration(text, file);
}

/** Byte order, as Go compares file names. */
const lexical = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** The `*.conf` files under `dir` in the order Go's filepath.WalkDir visits them. */
async function dropInFiles(dir: string): Promise<string[]> {
  const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => lexical(a.name, b.name));
  const files: string[] = [];
  for (const entry of entries) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) files.push(...(await dropInFiles(p)));
    else if (path.extname(entry.name) === '.conf') files.push(p);
  }
  return files;
}

function ms(document: JsonObject, ...keys: string[]): number {
  let at: Json = document;
  for (const k of keys) at = (at as JsonObject)[k];
  return goDurationMs(at as string)!;
}

function nodeNameOf(override: string | undefined): string {
  if (override === undefined) return hostname().trim().toLowerCase();
  const name = override.trim();
  if (name === '') throw new ConfigError('empty hostname is invalid');
  return name.toLowerCase();
}

/** kube's ValidateKubeletConfiguration, for the fields the agent uses */
function settingsOf(d: JsonObject): KubeletSettings {
  const authn = d.authentication as JsonObject;
  const authz = d.authorization as JsonObject;
  const str = (v: Json | undefined) => (typeof v === 'string' && v !== '' ? v : undefined);
  const settings: KubeletSettings = {
    address: d.address as string,
    port: d.port as number,
    tlsCertFile: str(d.tlsCertFile),
    tlsPrivateKeyFile: str(d.tlsPrivateKeyFile),
    authentication: {
      anonymous: (authn.anonymous as JsonObject).enabled === true,
      webhook: (authn.webhook as JsonObject).enabled === true,
      webhookCacheTtlMs: ms(d, 'authentication', 'webhook', 'cacheTTL'),
      clientCaFile: str((authn.x509 as JsonObject).clientCAFile),
    },
    authorization: {
      mode: authz.mode as AuthorizationMode,
      cacheAuthorizedTtlMs: ms(d, 'authorization', 'webhook', 'cacheAuthorizedTTL'),
      cacheUnauthorizedTtlMs: ms(d, 'authorization', 'webhook', 'cacheUnauthorizedTTL'),
    },
    nodeStatusUpdateFrequencyMs: ms(d, 'nodeStatusUpdateFrequency'),
    nodeStatusReportFrequencyMs: ms(d, 'nodeStatusReportFrequency'),
    nodeLeaseDurationSeconds: d.nodeLeaseDurationSeconds as number,
    runtimeRequestTimeoutMs: ms(d, 'runtimeRequestTimeout'),
    maxPods: d.maxPods as number,
    containerRuntimeEndpoint: str(d.containerRuntimeEndpoint),
  };
  const problems: string[] = [];
  if (settings.port < 1 || settings.port > 65535)
    problems.push(`port (--port) ${settings.port} must be between 1 and 65535, inclusive`);
  if (settings.maxPods < 0)
    problems.push(`maxPods (--max-pods) ${settings.maxPods} must not be a negative number`);
  if (settings.nodeStatusUpdateFrequencyMs <= 0)
    problems.push('nodeStatusUpdateFrequency (--node-status-update-frequency) must be > 0');
  if (settings.nodeStatusReportFrequencyMs <= 0) problems.push('nodeStatusReportFrequency must be > 0');
  if (settings.nodeLeaseDurationSeconds <= 0)
    problems.push('nodeLeaseDurationSeconds must be greater than 0');
  if (settings.authentication.webhookCacheTtlMs < 0)
    problems.push('authentication.webhook.cacheTTL must not be negative');
  if (settings.authorization.cacheAuthorizedTtlMs < 0 || settings.authorization.cacheUnauthorizedTtlMs < 0)
    problems.push('authorization.webhook cache TTLs must not be negative');
  if (settings.authorization.mode !== 'Webhook' && settings.authorization.mode !== 'AlwaysAllow')
    problems.push(
      `unknown authorization mode ${JSON.stringify(settings.authorization.mode)} (AlwaysAllow or Webhook)`,
    );
  if (Boolean(settings.tlsCertFile) !== Boolean(settings.tlsPrivateKeyFile))
    problems.push('tlsCertFile (--tls-cert-file) and tlsPrivateKeyFile (--tls-private-key-file) go together');
  if (problems.length > 0) throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
  return settings;
}

/** The whole configuration from the command line (after `node-agent`) and the files it names. */
export async function loadNodeAgentConfig(argv: readonly string[]): Promise<ParsedCommand> {
  const { flags, layer, help } = parseNodeAgentFlags(argv);
  if (help) return { help: true };
  const warnings: string[] = [];
  let document: JsonObject = withDefaults({});
  try {
    if (flags.config) {
      const main = await readConfigFile(flags.config);
      warnings.push(...main.warnings);
      document = withDefaults(main.json);
    }
    if (flags.configDir) {
      let files: string[];
      try {
        files = await dropInFiles(flags.configDir);
      } catch (e) {
        throw new KubeletConfigError(
          `failed to walk through kubelet dropin directory ${JSON.stringify(flags.configDir)}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
        );
      }
      let merged: Json = document;
      for (const file of files) {
        const dropIn = await readConfigFile(file);
        warnings.push(...dropIn.warnings);
        merged = mergeConfig(merged, dropIn.json);
      }
      // what a drop-in removed (null) or zeroed takes its default again
      document = withDefaults(merged as JsonObject);
    }
  } catch (e) {
    if (e instanceof KubeletConfigError) throw new ConfigError(`failed to load kubelet config: ${e.message}`);
    throw e;
  }
  document = withDefaults(mergeConfig(document, layer) as JsonObject);
  const kubelet = settingsOf(document);
  let featureGates: FeatureGates;
  try {
    const gates = Object.entries(document.featureGates as JsonObject).map(([k, v]) => `${k}=${String(v)}`);
    const parsed = parseFeatureGates(gates.length > 0 ? [gates.join(',')] : []);
    featureGates = parsed.gates;
    warnings.push(...parsed.warnings);
  } catch (e) {
    if (e instanceof FlagError) throw new ConfigError(`featureGates: ${e.reason}`);
    throw e;
  }
  const { certDir, ...rest } = flags;
  return {
    help: false,
    config: {
      ...rest,
      nodeName: nodeNameOf(flags.hostnameOverride),
      certDir: certDir ?? path.join(flags.rootDir, 'pki'),
      kubelet,
      featureGates,
      document,
      warnings,
    },
  };
}
