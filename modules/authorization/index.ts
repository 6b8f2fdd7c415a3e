export * from './authorizer.js';
export { AuthorizerChain, forbidden } from './chain.js';
export { PrivilegedGroupsAuthorizer, SYSTEM_MASTERS } from './privileged-groups.js';
export { PublicInfoAuthorizer, AuthenticatedUsersAuthorizer, isPublicPath } from './public-info.js';
export { AuthorizationModule } from './authorization.module.js';
