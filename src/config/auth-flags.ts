/**
 * The authentication and authorization flags (kube-apiserver's names and defaults): credentials, webhooks,
 * service accounts, the authenticating proxy, the authorization modes. config.ts reads them with the rest.
 */
import type { FlagSpec } from './config.js';
import { DEFAULT_SERVICE_ACCOUNT_ISSUER } from './flag-checks.js';
import {
  boolean,
  commaList,
  durationOrZero,
  pathList,
  sarVersion,
  text,
  webhookTimeout,
  webhookVersion,
} from './flag-values.js';

export const authFlags: Record<string, FlagSpec> = {
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
    help: "how long the webhook's answers, yes and no, are cached (default 2m0s, 10s with --authentication-kubeconfig; 0: not at all)",
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
    help: "how long the webhook's allows are cached (default 5m0s, 10s with --authorization-kubeconfig)",
  },
  'authorization-webhook-cache-unauthorized-ttl': {
    key: 'authorizationWebhookCacheUnauthorizedTtlMs',
    parse: durationOrZero,
    help: "how long the webhook's denials are cached (default 30s, 10s with --authorization-kubeconfig)",
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
  'authentication-kubeconfig': {
    key: 'authenticationKubeconfig',
    parse: text,
    help: 'kubeconfig of the host API server (this one is its aggregated server): tokens no local authenticator knows are reviewed there, and its kube-system/extension-apiserver-authentication names the client and proxy CAs',
  },
  'authentication-skip-lookup': {
    key: 'authenticationSkipLookup',
    parse: boolean,
    bool: true,
    help: "with --authentication-kubeconfig: do not read the host's extension-apiserver-authentication (default false)",
  },
  'authentication-tolerate-lookup-failure': {
    key: 'authenticationTolerateLookupFailure',
    parse: boolean,
    bool: true,
    help: "with --authentication-kubeconfig: start even when the host's extension-apiserver-authentication cannot be read (default false)",
  },
  'authorization-kubeconfig': {
    key: 'authorizationKubeconfig',
    parse: text,
    help: 'kubeconfig of the host API server: every request is authorized there (SubjectAccessReview), after --authorization-always-allow-paths and system:masters; not with --authorization-mode or --authorization-config',
  },
  'authorization-always-allow-paths': {
    key: 'authorizationAlwaysAllowPaths',
    parse: pathList,
    list: true,
    help: 'with --authorization-kubeconfig: paths anyone may reach, a trailing * a prefix (default /healthz,/readyz,/livez)',
  },
  kubeconfig: {
    key: 'kubeconfig',
    parse: text,
    help: "kubeconfig of the host API server whose namespaces this server's objects live in (default: --authentication-kubeconfig)",
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
