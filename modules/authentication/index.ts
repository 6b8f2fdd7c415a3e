export { anonymousUser, type UserInfo } from '../api/index.js';
export {
  bearerToken,
  CredentialRefused,
  type Authenticated,
  type AuthenticationRequest,
  type Authenticator,
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
