export { anonymousUser, type UserInfo } from '../api/index.js';
export type { AuthenticationRequest, Authenticator } from './authenticator.js';
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
