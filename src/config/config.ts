/**
 * Flags (kube-apiserver style names) → one typed, validated Config, parsed once at boot (ARCHITECTURE.md).
 * Nothing else reads process.env or argv.
 */
import path from 'node:path';
import { servedMinorVersion } from '../../modules/api/index.js';
import { validateShowHidden } from '../../modules/metrics/index.js';
import { builtinDefinitions } from '../../modules/kinds/index.js';
import { enabledControllers } from '../../modules/controllers/index.js';
import { AuthorizationFlagError, checkAuthorizationFlags } from '../../modules/authorization/index.js';
import {
  ApiEnablement,
  FeatureGates,
  FlagError,
  parseFeatureGates,
  parseRuntimeConfig,
  resolveApiEnablement,
} from '../../modules/versioning/index.js';

export type Command = 'serve' | 'migrate' | 'help';

export interface Config {
  command: Command;
  dataDir: string;
  /** unset: an embedded PostgreSQL is started in <dataDir>/postgres */
  databaseUrl?: string;
  bindAddress: string;
  /** 0 picks a free port (tests) */
  securePort: number;
  tlsCertFile?: string;
  tlsPrivateKeyFile?: string;
  tokenAuthFile?: string;
  /** --enable-bootstrap-token-auth: `kube-system/bootstrap-token-<id>` Secrets authenticate their tokens */
  enableBootstrapTokenAuth: boolean;
  /** --client-ca-file: the CAs of client certificates; unset: the data dir's CA */
  clientCaFile?: string;
  /** --requestheader-client-ca-file: the CAs of an authenticating proxy's certificate; unset: no proxy */
  requestheaderClientCaFile?: string;
  /** --requestheader-allowed-names: common names a proxy certificate may have (empty: any) */
  requestheaderAllowedNames: string[];
  /** --requestheader-username-headers, -uid-headers, -group-headers, -extra-headers-prefix */
  requestheaderUsernameHeaders: string[];
  requestheaderUidHeaders: string[];
  requestheaderGroupHeaders: string[];
  requestheaderExtraHeadersPrefix: string[];
  /** --http2-max-streams-per-connection; 0: kube's default (100) */
  http2MaxStreamsPerConnection: number;
  /** request bodies above this are refused with 413 (kube: 3 MiB) */
  maxRequestBodyBytes: number;
  /** how long watch history (and continue tokens) stay valid */
  historyRetentionMs: number;
  /** after SIGTERM: /readyz fails at once, requests are served this long, then the server stops */
  shutdownDelayMs: number;
  /** --storage-unavailable-timeout: how long a request waits for an unreachable PostgreSQL before its 503 */
  storageUnavailableTimeoutMs: number;
  /** the previous minor release: metrics hidden in this one are registered again */
  showHiddenMetricsForVersion?: string;
  /** this long after start, /livez passes start-up checks that have not finished yet */
  livezGracePeriodMs: number;
  /** --request-timeout: a request that is not long-running answers 504 past this; also the deadline to receive a request */
  requestTimeoutMs: number;
  /** --min-request-timeout (seconds): a watch without timeoutSeconds lasts a random time in [min, 2·min); 0: no limit */
  minRequestTimeoutS: number;
  /** --max-requests-inflight: most get/list (not watch) requests served at once; 0: no limit */
  maxRequestsInflight: number;
  /** --max-mutating-requests-inflight: most writes served at once; 0: no limit */
  maxMutatingRequestsInflight: number;
  /** --anonymous-auth; unset when not given (anonymous access on, unless --authentication-config says otherwise) */
  anonymousAuth?: boolean;
  /** --authentication-config: an AuthenticationConfiguration file (its anonymous section) */
  authenticationConfig?: string;
  /** --authentication-token-webhook-config-file: kubeconfig of the webhook that reviews bearer tokens */
  authenticationTokenWebhookConfigFile?: string;
  /** --authentication-token-webhook-version: the TokenReview version sent to and read from the webhook */
  authenticationTokenWebhookVersion: 'v1' | 'v1beta1';
  /** --authentication-token-webhook-cache-ttl: how long the webhook's answers are kept (0: not at all) */
  authenticationTokenWebhookCacheTtlMs: number;
  /** --authentication-token-webhook-timeout (pgkube's; kube fixes 30s): one webhook review, retries included */
  authenticationTokenWebhookTimeoutMs: number;
  /** --authorization-mode, in order; empty: not given */
  authorizationModes: string[];
  /** --authorization-policy-file: ABAC's policy, one JSON Policy per line */
  authorizationPolicyFile?: string;
  /** --authorization-webhook-config-file: kubeconfig of the Webhook mode's SubjectAccessReview endpoint */
  authorizationWebhookConfigFile?: string;
  /** --authorization-webhook-version: the SubjectAccessReview version sent to the webhook */
  authorizationWebhookVersion: 'v1' | 'v1beta1';
  /** --authorization-webhook-cache-authorized-ttl, -unauthorized-ttl */
  authorizationWebhookCacheAuthorizedTtlMs: number;
  authorizationWebhookCacheUnauthorizedTtlMs: number;
  /** --authorization-webhook-timeout (pgkube's; kube fixes 30s): one webhook review, retries included */
  authorizationWebhookTimeoutMs: number;
  /** --authorization-config: an AuthorizationConfiguration file (excludes the flags above) */
  authorizationConfig?: string;
  /** --controllers: the in-process controllers that run (checked at parse time) */
  controllers: string[];
  /** --feature-gates */
  featureGates: FeatureGates;
  /** --runtime-config, checked against the built-in kinds */
  apiEnablement: ApiEnablement;
  /** to log once at start (a deprecated or GA feature gate was set, ...) */
  warnings: string[];
  /** --service-account-key-file, each (a file may hold several keys); none: the serving key */
  serviceAccountKeyFiles: string[];
  /** --service-account-signing-key-file; unset: the serving key */
  serviceAccountSigningKeyFile?: string;
  /** --service-account-issuer, each: the first issues, all are accepted (default: DEFAULT_SERVICE_ACCOUNT_ISSUER) */
  serviceAccountIssuers: string[];
  /** --api-audiences; default: the issuers */
  apiAudiences: string[];
  /** --service-account-jwks-uri; unset: the key set on this server's address */
  serviceAccountJwksUri?: string;
  /** --service-account-max-token-expiration in seconds; 0: no cap */
  serviceAccountMaxTokenExpirationS: number;
  /** --service-account-lookup: legacy tokens are checked against their Secret and account */
  serviceAccountLookup: boolean;
}

export class ConfigError extends Error {}

interface FlagSpec {
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

const text = (v: string) => v;
const port = (v: string, flag: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new ConfigError(`${flag}: "${v}" is not a valid port`);
  return n;
};

const count = (v: string, flag: string) => {
  const n = Number(v);
  if (!/^\d+$/.test(v) || !Number.isSafeInteger(n) || n > 2 ** 31 - 1)
    throw new ConfigError(`${flag}: "${v}" is not a non-negative integer`);
  return n;
};

/** Go's strconv.ParseBool, which kube's bool flags use */
const boolean = (v: string, flag: string) => {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(v)) return false;
  throw new ConfigError(`${flag}: "${v}" is not a boolean (true or false)`);
};

const durationUnits: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** kube's (Go's) duration format: `300ms`, `30s`, `5m`, `1h30m`. */
export function parseDuration(v: string, flag: string): number {
  const parts = [...v.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== v) {
    throw new ConfigError(`${flag}: "${v}" is not a duration (e.g. 30s, 5m, 1h30m)`);
  }
  const ms = parts.reduce((sum, p) => sum + Number(p[1]) * durationUnits[p[2]], 0);
  if (ms <= 0) throw new ConfigError(`${flag}: must be positive`);
  return ms;
}

/** kube requires --service-account-issuer; without it pgkube issues as the in-cluster name of the API. */
export const DEFAULT_SERVICE_ACCOUNT_ISSUER = 'https://kubernetes.default.svc.cluster.local';

/** kube accepts `0` for durations that may be off */
const durationOrZero = (v: string, flag: string) => (v === '0' || v === '0s' ? 0 : parseDuration(v, flag));

/** the TokenReview versions kube's token webhook speaks */
const webhookVersion = (v: string, flag: string) => {
  if (v === 'v1' || v === 'v1beta1') return v;
  throw new ConfigError(
    `${flag}: unsupported authentication webhook version "${v}", supported versions are "v1", "v1beta1"`,
  );
};

/** pgkube bounds a webhook review by kube's fixed 30s at most */
const webhookTimeout = (v: string, flag: string) => {
  const ms = parseDuration(v, flag);
  if (ms > 30_000) throw new ConfigError(`${flag}: must be at most 30s`);
  return ms;
};

/** a string-slice flag's value: comma-separated items, none of them blank (kube: `empty value in "<flag>"`) */
const commaList = (v: string, flag: string) => {
  const items = v.split(',').map((i) => i.trim());
  if (items.some((i) => i === '')) throw new ConfigError(`${flag}: empty value in "${v}"`);
  return items;
};

/** the SubjectAccessReview versions kube's authorization webhook speaks */
const sarVersion = (v: string, flag: string) => {
  if (v === 'v1' || v === 'v1beta1') return v;
  throw new ConfigError(
    `${flag}: unsupported authorization webhook version "${v}", supported versions are "v1", "v1beta1"`,
  );
};

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
  'max-mutating-requests-inflight': {
    key: 'maxMutatingRequestsInflight',
    parse: count,
    help: 'most mutating requests served at once, then 429 (default 200; 0: no limit)',
  },
  'token-auth-file': {
    key: 'tokenAuthFile',
    parse: text,
    help: 'static tokens CSV: token,user,uid,"group1,group2"',
  },
  'anonymous-auth': {
    key: 'anonymousAuth',
    parse: boolean,
    bool: true,
    help: 'requests without credentials are system:anonymous (default true); not with an anonymous section in --authentication-config',
  },
  'authentication-config': {
    key: 'authenticationConfig',
    parse: text,
    help: 'AuthenticationConfiguration file (apiserver.config.k8s.io/v1beta1, v1alpha1): anonymous.enabled, anonymous.conditions[].path',
  },
  'authentication-token-webhook-config-file': {
    key: 'authenticationTokenWebhookConfigFile',
    parse: text,
    help: 'kubeconfig of a webhook asked (TokenReview) about bearer tokens no other authenticator knows',
  },
  'authentication-token-webhook-version': {
    key: 'authenticationTokenWebhookVersion',
    parse: webhookVersion,
    help: 'TokenReview version sent to and expected from the webhook: v1beta1 (default) or v1',
  },
  'authentication-token-webhook-cache-ttl': {
    key: 'authenticationTokenWebhookCacheTtlMs',
    parse: durationOrZero,
    help: "how long the webhook's answers, yes and no, are cached (default 2m0s; 0: not at all)",
  },
  'authentication-token-webhook-timeout': {
    key: 'authenticationTokenWebhookTimeoutMs',
    parse: webhookTimeout,
    help: 'most time one webhook review may take, retries included, before the token counts as refused (default 30s, at most 30s)',
  },
  'authorization-mode': {
    key: 'authorizationModes',
    parse: commaList,
    list: true,
    help: 'authorizers in order: AlwaysAllow, AlwaysDeny, ABAC, RBAC, Node, Webhook; system:masters is always allowed',
  },
  'authorization-policy-file': {
    key: 'authorizationPolicyFile',
    parse: text,
    help: 'ABAC policy (--authorization-mode=ABAC): one abac.authorization.kubernetes.io/v1beta1 Policy per line',
  },
  'authorization-webhook-config-file': {
    key: 'authorizationWebhookConfigFile',
    parse: text,
    help: 'kubeconfig of the webhook asked (SubjectAccessReview) in --authorization-mode=Webhook',
  },
  'authorization-webhook-version': {
    key: 'authorizationWebhookVersion',
    parse: sarVersion,
    help: 'SubjectAccessReview version sent to and expected from the webhook: v1beta1 (default) or v1',
  },
  'authorization-webhook-cache-authorized-ttl': {
    key: 'authorizationWebhookCacheAuthorizedTtlMs',
    parse: durationOrZero,
    help: "how long the webhook's allows are cached (default 5m0s)",
  },
  'authorization-webhook-cache-unauthorized-ttl': {
    key: 'authorizationWebhookCacheUnauthorizedTtlMs',
    parse: durationOrZero,
    help: "how long the webhook's denials are cached (default 30s)",
  },
  'authorization-webhook-timeout': {
    key: 'authorizationWebhookTimeoutMs',
    parse: webhookTimeout,
    help: 'most time one webhook review may take, retries included, before the webhook has no opinion (default 30s, at most 30s)',
  },
  'authorization-config': {
    key: 'authorizationConfig',
    parse: text,
    help: 'AuthorizationConfiguration file (apiserver.config.k8s.io/v1, v1beta1); not with the other --authorization-* flags',
  },
  'enable-bootstrap-token-auth': {
    key: 'enableBootstrapTokenAuth',
    parse: boolean,
    bool: true,
    help: 'bootstrap tokens <id>.<secret> authenticate, from kube-system/bootstrap-token-<id> Secrets (default false)',
  },
  'service-account-key-file': {
    key: 'serviceAccountKeyFiles',
    parse: text,
    repeated: true,
    help: 'PEM RSA or ECDSA keys (private or public) that verify service-account tokens; repeatable (default: the serving key)',
  },
  'service-account-signing-key-file': {
    key: 'serviceAccountSigningKeyFile',
    parse: text,
    help: 'PEM RSA or ECDSA private key that signs service-account tokens (default: the serving key)',
  },
  'service-account-issuer': {
    key: 'serviceAccountIssuers',
    parse: text,
    repeated: true,
    help: `"iss" of service-account tokens: the first issues, all are accepted; repeatable (default ${DEFAULT_SERVICE_ACCOUNT_ISSUER})`,
  },
  'api-audiences': {
    key: 'apiAudiences',
    parse: (v) => v.split(',').filter(Boolean),
    repeated: true,
    help: 'audiences a token must be for to authenticate here, comma-separated (default: the issuers)',
  },
  'service-account-jwks-uri': {
    key: 'serviceAccountJwksUri',
    parse: text,
    help: 'jwks_uri of /.well-known/openid-configuration (default: https://<this server>/openid/v1/jwks)',
  },
  'service-account-max-token-expiration': {
    key: 'serviceAccountMaxTokenExpirationS',
    parse: (v, flag) => durationOrZero(v, flag) / 1000,
    help: 'longest lifetime of a requested service-account token, between 1h and 2^32s (default 0: no cap)',
  },
  'service-account-lookup': {
    key: 'serviceAccountLookup',
    parse: boolean,
    bool: true,
    help: 'legacy service-account tokens authenticate only while their Secret and account exist (default true)',
  },
  'client-ca-file': {
    key: 'clientCaFile',
    parse: text,
    help: 'CA bundle (PEM) of client certificates: CN is the user, each O a group (default: the data dir CA)',
  },
  'requestheader-client-ca-file': {
    key: 'requestheaderClientCaFile',
    parse: text,
    help: 'CA bundle (PEM) of an authenticating proxy: requests on its connections name the user in headers',
  },
  'requestheader-allowed-names': {
    key: 'requestheaderAllowedNames',
    parse: commaList,
    list: true,
    help: 'common names the proxy certificate may have (default: any the proxy CA signed)',
  },
  'requestheader-username-headers': {
    key: 'requestheaderUsernameHeaders',
    parse: commaList,
    list: true,
    help: 'headers naming the user, the first with a value wins (default X-Remote-User)',
  },
  'requestheader-uid-headers': {
    key: 'requestheaderUidHeaders',
    parse: commaList,
    list: true,
    help: 'headers naming the user ID, must include X-Remote-Uid (feature gate RemoteRequestHeaderUID)',
  },
  'requestheader-group-headers': {
    key: 'requestheaderGroupHeaders',
    parse: commaList,
    list: true,
    help: 'headers naming groups, every value (default X-Remote-Group)',
  },
  'requestheader-extra-headers-prefix': {
    key: 'requestheaderExtraHeadersPrefix',
    parse: commaList,
    list: true,
    help: 'prefixes of headers carrying extra user fields, key percent-encoded (default X-Remote-Extra-)',
  },
};

/** kube's checks of the service-account flags, each error naming its flag. */
function checkServiceAccountFlags(config: Config): void {
  const seen = new Set<string>();
  for (const issuer of config.serviceAccountIssuers) {
    if (!issuer) throw new ConfigError('--service-account-issuer should not be an empty string');
    if (issuer.includes(':') && !URL.canParse(issuer))
      throw new ConfigError(`--service-account-issuer "${issuer}" contained a ':' but was not a valid URL`);
    if (seen.has(issuer)) throw new ConfigError(`--service-account-issuer "${issuer}" is already specified`);
    seen.add(issuer);
  }
  const max = config.serviceAccountMaxTokenExpirationS;
  if (max !== 0 && (max < 3600 || max > 2 ** 32))
    throw new ConfigError('--service-account-max-token-expiration must be between 1 hour and 2^32 seconds');
  const jwks = config.serviceAccountJwksUri;
  if (jwks !== undefined) {
    if (!URL.canParse(jwks))
      throw new ConfigError(`--service-account-jwks-uri must be a valid URL: "${jwks}"`);
    if (new URL(jwks).protocol !== 'https:')
      throw new ConfigError(`--service-account-jwks-uri requires https scheme, parsed as: ${jwks}`);
  }
  if (config.serviceAccountIssuers.length === 0)
    config.serviceAccountIssuers = [DEFAULT_SERVICE_ACCOUNT_ISSUER];
  if (config.apiAudiences.length === 0) config.apiAudiences = [...config.serviceAccountIssuers];
}

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
      apiEnablement: resolveApiEnablement(runtimeConfig, builtinDefinitions),
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
  if (config.command === 'migrate' && !config.databaseUrl) {
    throw new ConfigError('migrate needs --database-url (or DATABASE_URL)');
  }
  return config;
}

/**
 * The authenticating proxy's flags mean nothing without its CA: refused, naming them. The UID headers are
 * alpha in kube 1.32 and, as kube checks, must include the standard header; other lists without their
 * standard header only warn (API aggregation sends the standard ones).
 */
function checkRequestHeaderFlags(config: Config, given: ReadonlySet<string>): string[] {
  const flags = [...given].filter(
    (f) => f.startsWith('requestheader-') && f !== 'requestheader-client-ca-file',
  );
  if (flags.length > 0 && !config.requestheaderClientCaFile) {
    throw new ConfigError(
      `${flags.map((f) => `--${f}`).join(', ')} need --requestheader-client-ca-file (no proxy is trusted without it)`,
    );
  }
  const has = (list: string[], header: string) => list.some((h) => h.toLowerCase() === header.toLowerCase());
  if (config.requestheaderUidHeaders.length > 0) {
    if (!config.featureGates.enabled('RemoteRequestHeaderUID')) {
      throw new ConfigError(
        '--requestheader-uid-headers requires the "RemoteRequestHeaderUID" feature to be enabled (--feature-gates=RemoteRequestHeaderUID=true)',
      );
    }
    if (!has(config.requestheaderUidHeaders, 'X-Remote-Uid')) {
      throw new ConfigError(
        '--requestheader-uid-headers is set without specifying the standard X-Remote-Uid header - API aggregation will not work',
      );
    }
  }
  const warnings: string[] = [];
  for (const [flag, list, header] of [
    ['--requestheader-username-headers', config.requestheaderUsernameHeaders, 'X-Remote-User'],
    ['--requestheader-group-headers', config.requestheaderGroupHeaders, 'X-Remote-Group'],
    ['--requestheader-extra-headers-prefix', config.requestheaderExtraHeadersPrefix, 'X-Remote-Extra-'],
  ] as const) {
    if (config.requestheaderClientCaFile && !has(list, header)) {
      warnings.push(
        `${flag} is set without specifying the standard ${header} header - API aggregation will not work`,
      );
    }
  }
  return warnings;
}

/** Nest injection token for the Config. */
export const CONFIG = Symbol('Config');
