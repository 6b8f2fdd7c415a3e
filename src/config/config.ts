/**
 * Flags (kube-apiserver style names) → one typed, validated Config, parsed once at boot (ARCHITECTURE.md).
 * Nothing else reads process.env or argv.
 */
import path from 'node:path';
import { servedMinorVersion } from '../../modules/api/index.js';
import { validateShowHidden } from '../../modules/metrics/index.js';
import { builtinDefinitions } from '../../modules/kinds/index.js';
import { crdDefinition } from '../../modules/apiextensions/index.js';
import { enabledControllers } from '../../modules/controllers/index.js';
import { SERVICE_ACCOUNT_DIR, type UpstreamSource } from '../../modules/sidecar/index.js';
import { AuthorizationFlagError, checkAuthorizationFlags } from '../../modules/authorization/index.js';
import {
  ApiEnablement,
  FeatureGates,
  FlagError,
  parseFeatureGates,
  parseRuntimeConfig,
  resolveApiEnablement,
} from '../../modules/versioning/index.js';

import { authFlags } from './auth-flags.js';
import { nodeFlagDefaults, nodeFlags } from './node-flags.js';
import { auditFlagDefaults, auditFlags } from './audit-flags.js';
import type { Config } from './config-values.js';
import {
  AGGREGATED_CONTROLLERS,
  checkAggregationFlags,
  checkDelegationFlags,
  checkRequestHeaderFlags,
  checkServiceAccountFlags,
  checkSidecarFlags,
} from './flag-checks.js';
import {
  boolean,
  commaList,
  ConfigError,
  count,
  durationOrZero,
  parseDuration,
  port,
  serviceReference,
  text,
} from './flag-values.js';

export { ConfigError, parseDuration } from './flag-values.js';
export { DEFAULT_SERVICE_ACCOUNT_ISSUER } from './flag-checks.js';

export type { Command, Config } from './config-values.js';

export interface FlagSpec {
  key: keyof Config;
  parse: (value: string, flag: string) => unknown;
  help: string;
  /** a boolean flag: given alone it means true, and it never takes the next argument as its value (pflag) */
  bool?: true;
  /** each use adds to a list (kube's repeatable flags); `parse` may give several values at once */
  repeated?: boolean;
  /** kube's string slices: comma-separated, a repeated flag adds to the list, the first replaces the default */
  list?: true;
}

const flags: Record<string, FlagSpec> = {
  'data-dir': { key: 'dataDir', parse: (v) => path.resolve(v), help: 'state directory (default ./.pgkube)' },
  'database-url': {
    key: 'databaseUrl',
    parse: text,
    help: 'PostgreSQL URL (env DATABASE_URL); unset: embedded PostgreSQL',
  },
  'bind-address': { key: 'bindAddress', parse: text, help: 'address to listen on (default 127.0.0.1)' },
  'secure-port': { key: 'securePort', parse: port, help: 'HTTPS port (default 6443; 0 picks a free one)' },
  'tls-cert-file': { key: 'tlsCertFile', parse: text, help: 'serving certificate (PEM); unset: generated' },
  'tls-private-key-file': { key: 'tlsPrivateKeyFile', parse: text, help: 'serving key (PEM)' },
  'http2-max-streams-per-connection': {
    key: 'http2MaxStreamsPerConnection',
    parse: count,
    help: 'most concurrent HTTP/2 streams a client may open on one connection (default 0: 100)',
  },
  'history-retention': {
    key: 'historyRetentionMs',
    parse: parseDuration,
    help: 'how long watch history is kept (default 5m)',
  },
  'sql-expose-secret-data': {
    key: 'sqlExposeSecretData',
    parse: boolean,
    bool: true,
    help: "the SQL views (schema k8s) show Secrets' data and stringData (default false: hidden)",
  },
  'storage-unavailable-timeout': {
    key: 'storageUnavailableTimeoutMs',
    parse: durationOrZero,
    help: 'while PostgreSQL is unreachable, how long a request waits for it before its 503 (default 500ms)',
  },
  'shutdown-delay-duration': {
    key: 'shutdownDelayMs',
    parse: durationOrZero,
    help: 'after SIGTERM, keep serving this long while /readyz fails (default 0s)',
  },
  'show-hidden-metrics-for-version': {
    key: 'showHiddenMetricsForVersion',
    parse: (v) => {
      try {
        validateShowHidden(v, servedMinorVersion);
      } catch (e) {
        throw new ConfigError((e as Error).message);
      }
      return v;
    },
    help: 'the previous minor release (e.g. 1.31): show metrics hidden in this release',
  },
  'livez-grace-period': {
    key: 'livezGracePeriodMs',
    parse: durationOrZero,
    help: 'after start, /livez passes unfinished start-up checks this long (default 0s)',
  },
  'request-timeout': {
    key: 'requestTimeoutMs',
    parse: parseDuration,
    help: 'a request that is not long-running (not a watch) answers 504 past this (default 1m0s)',
  },
  'min-request-timeout': {
    key: 'minRequestTimeoutS',
    parse: count,
    help: 'seconds: a watch without timeoutSeconds ends after a random time in [this, 2×this) (default 1800)',
  },
  'max-requests-inflight': {
    key: 'maxRequestsInflight',
    parse: count,
    help: 'most non-mutating requests (watches aside) served at once, then 429 (default 400; 0: no limit)',
  },
  'api-definitions': {
    key: 'apiDefinitions',
    parse: (v) => path.resolve(v),
    help: 'a file or directory of CustomResourceDefinition manifests (YAML or JSON), applied at start',
  },
  'builtin-apis': {
    key: 'builtinApis',
    parse: boolean,
    bool: true,
    help: 'serve the built-in API groups (default true); false: an aggregated server with only its CRD groups',
  },
  'tls-san': {
    key: 'tlsSans',
    parse: commaList,
    repeated: true,
    help: 'DNS names or IPs added to the generated serving certificate, e.g. widgets-api.pgkube.svc; repeatable',
  },
  'proxy-client-cert-file': {
    key: 'proxyClientCertFile',
    parse: text,
    help: 'client certificate (PEM) presented to aggregated API servers (default: generated from the data dir front-proxy CA)',
  },
  'proxy-client-key-file': { key: 'proxyClientKeyFile', parse: text, help: 'its key (PEM)' },
  'apiservice-kubeconfig': {
    key: 'apiserviceKubeconfig',
    parse: text,
    help: 'kubeconfig of the host: keep an APIService there for each served CRD group/version',
  },
  'apiservice-service': {
    key: 'apiserviceService',
    parse: serviceReference,
    help: "NAMESPACE/NAME[:PORT] of the host's Service those APIServices route to (port default 443)",
  },
  'apiservice-group-priority-minimum': {
    key: 'apiserviceGroupPriorityMinimum',
    parse: count,
    help: 'groupPriorityMinimum of the registered APIServices (default 1000)',
  },
  'apiservice-version-priority': {
    key: 'apiserviceVersionPriority',
    parse: count,
    help: 'versionPriority of the registered APIServices (default 15)',
  },
  'upstream-kubeconfig': {
    key: 'upstreamKubeconfig',
    parse: (v) => path.resolve(v),
    help: 'sidecar mode: kubeconfig of the cluster that serves every request for groups this server does not serve',
  },
  'upstream-in-cluster': {
    key: 'upstreamInCluster',
    parse: boolean,
    bool: true,
    help: "sidecar mode: the upstream is the Pod's own cluster (KUBERNETES_SERVICE_HOST/PORT, its service account)",
  },
  'max-mutating-requests-inflight': {
    key: 'maxMutatingRequestsInflight',
    parse: count,
    help: 'most mutating requests served at once, then 429 (default 200; 0: no limit)',
  },
  ...authFlags,
  ...nodeFlags,
  ...auditFlags,
};

/** List flags (`k=v,k=v` or `a,b`): repeating one adds to it, as kube's do. */
const mapFlags: Record<'feature-gates' | 'runtime-config' | 'controllers', string> = {
  controllers:
    'in-process controllers: * (those on by default), name (on), -name (off); tokencleaner and bootstrapsigner are off by default',
  'feature-gates': 'Name=true|false,... (alpha gates default off, beta on; GA gates are locked)',
  'runtime-config':
    'enable or disable API versions: <group>/<version>[/<resource>][=bool], v1, api/all|ga|beta|alpha',
};

export const usage = [
  'usage: pgkube <serve|migrate> [flags]   (pgkube kubeconfig --help: a kubeconfig with a client certificate)',
  '',
  ...[...Object.entries(flags).map(([name, spec]) => [name, spec.help]), ...Object.entries(mapFlags)].map(
    ([name, help]) => `  --${name.padEnd(32)} ${help}`,
  ),
].join('\n');

/** --feature-gates and --runtime-config, read and checked against the built-in kinds. */
function versioningFlags(
  values: Record<'feature-gates' | 'runtime-config', string[]>,
): Pick<Config, 'featureGates' | 'apiEnablement' | 'warnings'> {
  try {
    const gates = parseFeatureGates(values['feature-gates']);
    const runtimeConfig = parseRuntimeConfig(values['runtime-config']);
    return {
      featureGates: gates.gates,
      apiEnablement: resolveApiEnablement(runtimeConfig, [...builtinDefinitions, crdDefinition()]),
      warnings: [...gates.warnings, ...runtimeConfig.warnings],
    };
  } catch (e) {
    if (e instanceof FlagError) throw new ConfigError(e.message);
    throw e;
  }
}

export function parseConfig(argv: string[], env: Record<string, string | undefined>): Config {
  const config: Config = {
    command: 'serve',
    dataDir: path.resolve('.pgkube'),
    databaseUrl: env.DATABASE_URL || undefined,
    bindAddress: '127.0.0.1',
    securePort: 6443,
    http2MaxStreamsPerConnection: 0,
    maxRequestBodyBytes: 3 * 1024 * 1024,
    historyRetentionMs: 5 * 60_000,
    sqlExposeSecretData: false,
    ...nodeFlagDefaults,
    ...auditFlagDefaults,
    shutdownDelayMs: 0,
    storageUnavailableTimeoutMs: 500,
    livezGracePeriodMs: 0,
    requestTimeoutMs: 60_000,
    minRequestTimeoutS: 1800,
    maxRequestsInflight: 400,
    maxMutatingRequestsInflight: 200,
    authenticationTokenWebhookVersion: 'v1beta1',
    authenticationTokenWebhookCacheTtlMs: 2 * 60_000,
    authenticationTokenWebhookTimeoutMs: 30_000,
    enableBootstrapTokenAuth: false,
    authorizationModes: [],
    authorizationWebhookVersion: 'v1beta1',
    authorizationWebhookCacheAuthorizedTtlMs: 5 * 60_000,
    authorizationWebhookCacheUnauthorizedTtlMs: 30_000,
    authorizationWebhookTimeoutMs: 30_000,
    controllers: [],
    builtinApis: true,
    upstreamInCluster: false,
    delegatedToUpstream: { authentication: false, authorization: false },
    tlsSans: [],
    apiserviceGroupPriorityMinimum: 1000,
    apiserviceVersionPriority: 15,
    authenticationSkipLookup: false,
    authenticationTolerateLookupFailure: false,
    authorizationAlwaysAllowPaths: ['/healthz', '/readyz', '/livez'],
    requestheaderAllowedNames: [],
    requestheaderUsernameHeaders: ['X-Remote-User'],
    requestheaderUidHeaders: [],
    requestheaderGroupHeaders: ['X-Remote-Group'],
    requestheaderExtraHeadersPrefix: ['X-Remote-Extra-'],
    featureGates: FeatureGates.defaults(),
    apiEnablement: new ApiEnablement(),
    warnings: [],
    serviceAccountKeyFiles: [],
    serviceAccountIssuers: [],
    apiAudiences: [],
    serviceAccountMaxTokenExpirationS: 0,
    serviceAccountLookup: true,
  };
  const mapValues: Record<keyof typeof mapFlags, string[]> = {
    'feature-gates': [],
    'runtime-config': [],
    controllers: [],
  };
  const args = [...argv];
  const given = new Set<string>();
  if (args[0] && !args[0].startsWith('-')) {
    const command = args.shift()!;
    if (command !== 'serve' && command !== 'migrate' && command !== 'help') {
      throw new ConfigError(`unknown command "${command}"\n${usage}`);
    }
    config.command = command;
  }
  while (args.length > 0) {
    const arg = args.shift()!;
    if (arg === '-h' || arg === '--help') return { ...config, command: 'help' };
    const match = /^--([a-z0-9-]+)(?:=(.*))?$/s.exec(arg);
    if (!match) throw new ConfigError(`unexpected argument "${arg}"\n${usage}`);
    const [, name, inline] = match;
    const spec = flags[name];
    const isMap = Object.hasOwn(mapFlags, name);
    if (!spec && !isMap) throw new ConfigError(`unknown flag: --${name}\n${usage}`);
    const value = inline ?? (spec?.bool ? 'true' : args.shift());
    if (value === undefined) throw new ConfigError(`flag needs an argument: --${name}`);
    const fields = config as unknown as Record<string, unknown>;
    if (isMap) mapValues[name as keyof typeof mapFlags].push(value);
    else if (spec.repeated) (fields[spec.key] as unknown[]).push(...[spec.parse(value, `--${name}`)].flat());
    else if (spec.list && given.has(name))
      fields[spec.key] = [...(fields[spec.key] as string[]), ...(spec.parse(value, `--${name}`) as string[])];
    else fields[spec.key] = spec.parse(value, `--${name}`);
    given.add(name);
  }
  config.upstream = upstreamSource(config, env);
  checkSidecarFlags(config, given);
  if (!config.builtinApis) {
    // stored (controllers and authorizers still read them), not served; CRDs define what is
    mapValues['runtime-config'].unshift('api/all=false,apiextensions.k8s.io/v1=true');
    if (mapValues.controllers.length === 0) mapValues.controllers.push(AGGREGATED_CONTROLLERS);
  }
  Object.assign(config, versioningFlags(mapValues));
  try {
    enabledControllers(mapValues.controllers);
  } catch (e) {
    throw new ConfigError((e as Error).message);
  }
  config.controllers = mapValues.controllers;
  if (Boolean(config.tlsCertFile) !== Boolean(config.tlsPrivateKeyFile)) {
    throw new ConfigError('--tls-cert-file and --tls-private-key-file must be given together');
  }
  checkServiceAccountFlags(config);
  checkDelegationFlags(config, given);
  try {
    checkAuthorizationFlags(
      {
        modes: config.authorizationModes,
        policyFile: config.authorizationPolicyFile,
        webhookConfigFile: config.authorizationWebhookConfigFile,
        configFile: config.authorizationConfig,
      },
      given,
    );
  } catch (e) {
    if (e instanceof AuthorizationFlagError) throw new ConfigError(e.message);
    throw e;
  }
  config.warnings.push(...checkRequestHeaderFlags(config, given));
  checkAggregationFlags(config);
  if (config.command === 'migrate' && !config.databaseUrl) {
    throw new ConfigError('migrate needs --database-url (or DATABASE_URL)');
  }
  return config;
}

/**
 * Sidecar mode's upstream: a kubeconfig, or the Pod's cluster (client-go's InClusterConfig: the service's address
 * from the environment, read here as config is read once, and the mounted service account).
 */
function upstreamSource(config: Config, env: Record<string, string | undefined>): UpstreamSource | undefined {
  if (config.upstreamKubeconfig && config.upstreamInCluster)
    throw new ConfigError('--upstream-kubeconfig and --upstream-in-cluster exclude each other');
  if (config.upstreamKubeconfig) return { kubeconfig: config.upstreamKubeconfig };
  if (!config.upstreamInCluster) return undefined;
  const host = env.KUBERNETES_SERVICE_HOST;
  const port = env.KUBERNETES_SERVICE_PORT;
  if (!host || !port)
    throw new ConfigError(
      '--upstream-in-cluster: unable to load in-cluster configuration, KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be defined',
    );
  return { inCluster: { host, port, serviceAccountDir: SERVICE_ACCOUNT_DIR } };
}

/** Nest injection token for the Config. */
export const CONFIG = Symbol('Config');
