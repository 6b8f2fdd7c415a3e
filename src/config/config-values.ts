/** The typed configuration every flag of `serve` is parsed into (config.ts parses; the rest of the code reads this). */
import type { ApiEnablement, FeatureGates } from '../../modules/versioning/index.js';
import type { UpstreamSource } from '../../modules/sidecar/index.js';
import type { AuditFlagValues } from './audit-flags.js';
import type { NodeFlagValues } from './node-flags.js';

export type Command = 'serve' | 'migrate' | 'help';

export interface Config extends NodeFlagValues, AuditFlagValues {
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
  /** --sql-expose-secret-data: the k8s.* views show Secrets' data (hidden by default) */
  sqlExposeSecretData: boolean;
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
  /** --authentication-kubeconfig: the host that reviews unknown tokens and names the client and proxy CAs */
  authenticationKubeconfig?: string;
  /** --authentication-skip-lookup: the host's extension-apiserver-authentication is not read */
  authenticationSkipLookup: boolean;
  /** --authentication-tolerate-lookup-failure: a host that cannot be read does not stop the start */
  authenticationTolerateLookupFailure: boolean;
  /** --authorization-kubeconfig: the host that authorizes every request (excludes the modes and files above) */
  authorizationKubeconfig?: string;
  /** --authorization-always-allow-paths (with --authorization-kubeconfig) */
  authorizationAlwaysAllowPaths: string[];
  /** --kubeconfig: the host whose namespaces hold this server's objects (default --authentication-kubeconfig) */
  kubeconfig?: string;
  /** --api-definitions: CRD manifests (a file or a directory) applied at start */
  apiDefinitions?: string;
  /** --builtin-apis=false: an aggregated server serving only its CRD groups (built-in kinds stay stored, unserved) */
  builtinApis: boolean;
  /** --tls-san: names (DNS or IP) added to the generated serving certificate */
  tlsSans: string[];
  /** --proxy-client-cert-file, --proxy-client-key-file: what the host presents to aggregated servers */
  proxyClientCertFile?: string;
  proxyClientKeyFile?: string;
  /** --apiservice-kubeconfig: the host this server registers its APIServices in */
  apiserviceKubeconfig?: string;
  /** --apiservice-service NAMESPACE/NAME[:PORT]: the host's Service those APIServices name */
  apiserviceService?: { namespace: string; name: string; port: number };
  /** --apiservice-group-priority-minimum, --apiservice-version-priority */
  apiserviceGroupPriorityMinimum: number;
  apiserviceVersionPriority: number;
  /** --upstream-kubeconfig FILE */
  upstreamKubeconfig?: string;
  /** --upstream-in-cluster */
  upstreamInCluster: boolean;
  /** sidecar mode (either flag above): the cluster every request this server does not serve goes to */
  upstream?: UpstreamSource;
  /** sidecar mode without --authentication-kubeconfig / --authorization-kubeconfig: delegated to the upstream */
  delegatedToUpstream: { authentication: boolean; authorization: boolean };
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
