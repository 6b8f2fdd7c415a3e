export * from './authorizer.js';
export { AuthorizerChain, forbidden } from './chain.js';
export { PrivilegedGroupsAuthorizer, SYSTEM_MASTERS } from './privileged-groups.js';
export {
  NodeAuthorizer,
  nodeNameOf,
  NODES_GROUP,
  NODE_LEASE_NAMESPACE,
  type NodeAuthorizerOptions,
} from './node.js';
export { NodeGraph, type GraphResource } from './node-graph.js';
export { NodeGraphInformer } from './node-graph-informer.js';
export {
  isMirrorPod,
  MIRROR_POD_ANNOTATION,
  podNodeName,
  podReferences,
  type PodReferences,
} from './pod-references.js';
export { RbacAuthorizer } from './rbac/authorizer.js';
export { RbacPolicy } from './rbac/policy.js';
export { RbacEscalationCheck } from './rbac/escalation.js';
export { reconcileDefaultPolicy } from './rbac/reconcile.js';
export { RbacInformers } from './rbac/informers.js';
export { AuthorizationModule } from './authorization.module.js';
export {
  AUTHORIZATION_MODES,
  AuthorizationFlagError,
  DEFAULT_AUTHORIZATION_MODES,
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
export {
  AlwaysAllowPathsAuthorizer,
  alwaysAllowPathsError,
  DEFAULT_ALWAYS_ALLOW_PATHS,
} from './always-allow-paths.js';
export {
  delegatedChain,
  DELEGATED_AUTHORIZED_TTL_MS,
  DELEGATED_UNAUTHORIZED_TTL_MS,
  SUBJECT_ACCESS_REVIEW_PATH,
  type DelegatedAuthorization,
} from './delegated.js';
