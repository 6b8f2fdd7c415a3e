export { anonymousUser, type UserInfo } from '../api/index.js';
export { withAuthenticatedGroup, type AuthenticationRequest, type Authenticator } from './authenticator.js';
export { BearerTokenAuthenticator } from './bearer-token.js';
export { AuthenticatorUnion } from './union.js';
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
export { CertificatePool, CertificateError, parseCertificates } from './certificate-pool.js';
export { peerCertificates } from './peer-certificates.js';
export { X509Authenticator, certificateUser, CREDENTIAL_ID } from './x509.js';
export {
  RequestHeaderAuthenticator,
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
