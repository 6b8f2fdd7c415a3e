/**
 * A delegating server's authorization (kube's DelegatingAuthorizationOptions, --authorization-kubeconfig):
 * the always-allowed paths, then system:masters, then the host, asked with a SubjectAccessReview
 * (authorization.k8s.io/v1) whose allows and denials are each kept 10 s by default. Nothing local is asked
 * (no RBAC objects needed here). A host that cannot answer makes the request fail with 500, as kube's
 * delegating authorizer does (an authorizer's error is an internal error, never cached).
 */
import type { WebhookConnection, WebhookTransport } from '../webhook/index.js';
import { AlwaysAllowPathsAuthorizer } from './always-allow-paths.js';
import { AuthorizerChain } from './chain.js';
import { PrivilegedGroupsAuthorizer } from './privileged-groups.js';
import { WebhookAuthorizer, type WebhookAuthorizerOptions } from './webhook.js';

export const SUBJECT_ACCESS_REVIEW_PATH = '/apis/authorization.k8s.io/v1/subjectaccessreviews';
/** kube's delegating defaults */
export const DELEGATED_AUTHORIZED_TTL_MS = 10_000;
export const DELEGATED_UNAUTHORIZED_TTL_MS = 10_000;
export const DELEGATED_TIMEOUT_MS = 10_000;

export interface DelegatedAuthorization {
  /** the host (its base URL; the review path is added) */
  connection: WebhookConnection;
  /** --authorization-webhook-cache-authorized-ttl, -unauthorized-ttl */
  authorizedTtlMs: number;
  unauthorizedTtlMs: number;
  /** --authorization-always-allow-paths */
  alwaysAllowPaths: readonly string[];
}

export function delegatedChain(
  o: DelegatedAuthorization,
  transport: Pick<WebhookTransport, 'post'>,
  webhook: Pick<WebhookAuthorizerOptions, 'selectors' | 'log' | 'observe' | 'now'>,
): AuthorizerChain {
  return new AuthorizerChain([
    new AlwaysAllowPathsAuthorizer(o.alwaysAllowPaths),
    new PrivilegedGroupsAuthorizer(),
    new WebhookAuthorizer(transport, {
      ...webhook,
      version: 'v1',
      authorizedTtlMs: o.authorizedTtlMs,
      unauthorizedTtlMs: o.unauthorizedTtlMs,
      decisionOnError: 'noOpinion',
    }),
  ]);
}
