export { anonymousUser, type UserInfo } from '../api/index.js';
export type { AuthenticationRequest, Authenticator } from './authenticator.js';
export { BearerTokenAuthenticator, bearerToken } from './bearer-token.js';
export { BootstrapTokenAuthenticator, type SecretLookup } from './bootstrap-token.js';
export {
  BOOTSTRAP_TOKEN_NAMESPACE,
  isBootstrapTokenSecret,
  signingToken,
  tokenExpiry,
} from './bootstrap-secret.js';
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
