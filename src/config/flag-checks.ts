/** kube's checks across flags, run once every flag is read: each error names the flags at fault. */
import { alwaysAllowPathsError } from '../../modules/authorization/index.js';
import type { Config } from './config.js';
import { ConfigError } from './flag-values.js';

/** kube requires --service-account-issuer; without it pgkube issues as the in-cluster name of the API. */
export const DEFAULT_SERVICE_ACCOUNT_ISSUER = 'https://kubernetes.default.svc.cluster.local';

/** kube's checks of the service-account flags, each error naming its flag. */
export function checkServiceAccountFlags(config: Config): void {
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

/**
 * The authenticating proxy's flags mean nothing without its CA: refused, naming them. The UID headers are
 * alpha in kube 1.32 and, as kube checks, must include the standard header; other lists without their
 * standard header only warn (API aggregation sends the standard ones).
 */
export function checkRequestHeaderFlags(config: Config, given: ReadonlySet<string>): string[] {
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

/** An aggregated server runs only the controllers its own kinds need (--controllers still decides). */
export const AGGREGATED_CONTROLLERS = 'garbagecollector';

/** The aggregation flags that only make sense together. */
export function checkAggregationFlags(config: Config): void {
  if (Boolean(config.proxyClientCertFile) !== Boolean(config.proxyClientKeyFile))
    throw new ConfigError('--proxy-client-cert-file and --proxy-client-key-file must be given together');
  if (Boolean(config.apiserviceKubeconfig) !== Boolean(config.apiserviceService))
    throw new ConfigError('--apiservice-kubeconfig and --apiservice-service must be given together');
  if (config.apiserviceGroupPriorityMinimum < 1 || config.apiserviceGroupPriorityMinimum > 20000)
    throw new ConfigError('--apiservice-group-priority-minimum must be between 1 and 20000');
  if (config.apiserviceVersionPriority < 1 || config.apiserviceVersionPriority > 1000)
    throw new ConfigError('--apiservice-version-priority must be between 1 and 1000');
}

/**
 * Sidecar mode serves its CRD groups only (so --builtin-apis is false unless given; true is refused: the core
 * group and the built-in groups are the upstream's). Authentication and authorization are delegated to the
 * upstream unless their own kubeconfig, or local authorization flags, say otherwise.
 */
export function checkSidecarFlags(config: Config, given: ReadonlySet<string>): void {
  if (!config.upstream) return;
  if (given.has('builtin-apis') && config.builtinApis)
    throw new ConfigError(
      '--builtin-apis=true cannot be used in sidecar mode (--upstream-*): the upstream serves the built-in groups',
    );
  config.builtinApis = false;
  config.delegatedToUpstream = {
    authentication: !given.has('authentication-kubeconfig'),
    authorization:
      !given.has('authorization-kubeconfig') && !LOCAL_AUTHORIZATION_FLAGS.some((f) => given.has(f)),
  };
}

/** what --authorization-kubeconfig replaces: a delegating server authorizes only through its host */
const LOCAL_AUTHORIZATION_FLAGS = [
  'authorization-mode',
  'authorization-config',
  'authorization-policy-file',
  'authorization-webhook-config-file',
  'authorization-webhook-version',
  'authorization-webhook-timeout',
];
/** the host reviews tokens in place of these */
const TOKEN_WEBHOOK_FLAGS = [
  'authentication-token-webhook-config-file',
  'authentication-token-webhook-version',
  'authentication-token-webhook-timeout',
];
/** kube's delegating caches: short, the host's policy changes reach this server soon */
const DELEGATED_TTL_MS = 10_000;

const named = (flags: string[]) => flags.map((f) => `--${f}`).join(', ');

/**
 * The delegating server's flags (kube's DelegatingAuthenticationOptions, DelegatingAuthorizationOptions):
 * each host flag excludes what it replaces, the lookup flags need the host, and kube's delegating cache TTLs
 * (10s) apply where no TTL flag was given.
 */
export function checkDelegationFlags(config: Config, given: ReadonlySet<string>): void {
  if (config.authorizationKubeconfig !== undefined || config.delegatedToUpstream.authorization) {
    const local = LOCAL_AUTHORIZATION_FLAGS.filter((f) => given.has(f));
    if (local.length > 0)
      throw new ConfigError(
        `--authorization-kubeconfig can not be specified when ${named(local)} flags are set`,
      );
    const error = alwaysAllowPathsError(config.authorizationAlwaysAllowPaths);
    if (error) throw new ConfigError(`--authorization-always-allow-paths: ${error}`);
    if (!given.has('authorization-webhook-cache-authorized-ttl'))
      config.authorizationWebhookCacheAuthorizedTtlMs = DELEGATED_TTL_MS;
    if (!given.has('authorization-webhook-cache-unauthorized-ttl'))
      config.authorizationWebhookCacheUnauthorizedTtlMs = DELEGATED_TTL_MS;
  } else if (given.has('authorization-always-allow-paths')) {
    throw new ConfigError(
      '--authorization-always-allow-paths needs --authorization-kubeconfig (a server that authorizes itself allows paths by its own policy)',
    );
  }
  if (config.authenticationKubeconfig !== undefined || config.delegatedToUpstream.authentication) {
    const webhook = TOKEN_WEBHOOK_FLAGS.filter((f) => given.has(f));
    if (webhook.length > 0)
      throw new ConfigError(
        `--authentication-kubeconfig can not be specified when ${named(webhook)} flags are set (the host reviews the tokens)`,
      );
    if (!given.has('authentication-token-webhook-cache-ttl'))
      config.authenticationTokenWebhookCacheTtlMs = DELEGATED_TTL_MS;
  } else {
    const lookup = ['authentication-skip-lookup', 'authentication-tolerate-lookup-failure'].filter((f) =>
      given.has(f),
    );
    if (lookup.length > 0) throw new ConfigError(`${named(lookup)} need --authentication-kubeconfig`);
  }
}
