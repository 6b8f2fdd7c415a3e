export * from './authorizer.js';
export { AuthorizerChain, forbidden } from './chain.js';
export { PrivilegedGroupsAuthorizer, SYSTEM_MASTERS } from './privileged-groups.js';
export { PublicInfoAuthorizer, AuthenticatedUsersAuthorizer, isPublicPath } from './public-info.js';
export { AuthorizationModule } from './authorization.module.js';
export {
  AUTHORIZATION_MODES,
  AuthorizationFlagError,
  authorizerChain,
  checkAuthorizationFlags,
  type AuthorizationFlags,
  type AuthorizationMode,
  type ModeFactory,
} from './modes.js';
export { AlwaysAllowAuthorizer, AlwaysDenyAuthorizer } from './always.js';
export type { AuthorizationOptions } from './authorization.module.js';
export { AbacAuthorizer, parsePolicyFile, policyMatches, PolicyFileError, type AbacPolicy } from './abac.js';
export { WebhookAuthorizer, reviewBody, type WebhookAuthorizerOptions } from './webhook.js';
export {
  loadAuthorization,
  type AuthorizationFileFlags,
  type AuthorizationWebhookOptions,
  type LoadedAuthorization,
} from './flags.js';
export { reviewAttributes } from './reviews.js';
