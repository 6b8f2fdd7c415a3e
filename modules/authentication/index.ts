export { anonymousUser, type UserInfo } from '../api/index.js';
export {
  bearerToken,
  CredentialRefused,
  type Authenticated,
  type AuthenticationRequest,
  type Authenticator,
  withAuthenticatedGroup,
} from './authenticator.js';
export { BearerTokenAuthenticator } from './bearer-token.js';
export { AuthenticatorUnion, type AnonymousAccess, type TokenReviewAnswer } from './union.js';
export { loadAuthentication, type AuthenticationFlags, type LoadedAuthentication } from './flags.js';
export { BootstrapTokenAuthenticator, type SecretLookup } from './bootstrap-token.js';
export {
  BOOTSTRAP_TOKEN_NAMESPACE,
  isBootstrapTokenSecret,
  signingToken,
  tokenExpiry,
} from './bootstrap-secret.js';
export {
  Impersonation,
  impersonationHeaders,
  impersonationRequest,
  type ImpersonationHeaders,
  type ImpersonationRequest,
} from './impersonation.js';
export { parseTokenFile } from './token-file.js';
export { adminCredentials, kubeconfig, type AdminCredentials } from './admin.js';
export { AuthenticationModule, type AuthenticationOptions } from './authentication.module.js';
export { OPENID_DISCOVERY, type ServiceAccountOptions } from './authentication.module.js';
export {
  ServiceAccountTokenAuthenticator,
  type ObjectGetter,
  type TokenAuthentication,
} from './serviceaccount/authenticator.js';
export { TokenIssuer, type BoundToken, type BoundTokenClaims } from './serviceaccount/issuer.js';
export {
  loadServiceAccountKeys,
  serviceAccountKeys,
  publicKeysFromPem,
  privateKeyFromPem,
  keyId,
  type ServiceAccountKeys,
  type SigningKey,
  type VerificationKey,
  type KeySource,
} from './serviceaccount/keys.js';
export {
  OpenIdDiscovery,
  OPENID_CONFIGURATION_PATH,
  JWKS_PATH,
  OPENID_CACHE_CONTROL,
  JWKS_CONTENT_TYPE,
} from './serviceaccount/oidc-discovery.js';
export * from './serviceaccount/token-request.js';
export {
  serviceAccountUsername,
  serviceAccountGroups,
  LEGACY_ISSUER,
  type ObjectRef,
} from './serviceaccount/claims.js';
export { CertificatePool, CertificateError, parseCertificates } from './certificate-pool.js';
export { peerCertificates } from './peer-certificates.js';
export { X509Authenticator, certificateUser, CREDENTIAL_ID, type CertificatePoolSource } from './x509.js';
export { WebhookTokenAuthenticator } from './webhook/authenticator.js';
export { TokenReviewClient } from './webhook/client.js';
export {
  RequestHeaderAuthenticator,
  type RequestHeaderSource,
  headerUser,
  type RequestHeaderNames,
  type RequestHeaderOptions,
} from './request-header.js';
export { CredentialHeaders } from './credential-headers.js';
export {
  AuthenticationTrustPublisher,
  trustData,
  TRUST_CONFIGMAP,
  TRUST_NAMESPACE,
  type AuthenticationTrust,
} from './authentication-trust.js';
export {
  kubeconfigYaml,
  kubeconfigCluster,
  type KubeconfigUser,
  type KubeconfigOptions,
} from './kubeconfig.js';
export { readWebhookKubeconfig, type WebhookConnection } from '../webhook/index.js';
export {
  HostTrust,
  hostTrustFrom,
  HOST_TRUST_PATH,
  type HostTrustChoice,
  type HostTrustOptions,
  type HostTrustState,
} from './delegation/host-trust.js';
export {
  hostConnection,
  loadDelegatedAuthentication,
  TOKEN_REVIEW_PATH,
  type DelegatedAuthentication,
  type DelegatedAuthenticationFlags,
} from './delegation/load.js';
