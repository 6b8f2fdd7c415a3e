/**
 * A delegating server's authorization (kube's DelegatingAuthorizationOptions, --authorization-kubeconfig):
 * the always-allowed paths, then system:masters, then the host, asked with a SubjectAccessReview
 * (authorization.k8s.io/v1) whose allows and denials are each kept 10 s by default. Nothing local is asked
 * (no RBAC objects needed here). A host that cannot answer has no opinion, so the request is refused with 403
 * and the failure as its reason (kube would answer 500; a host that is down is no fault of this server's).
 */
import type { WebhookConnection, WebhookTransport } from '../webhook/index.js';
import { AlwaysAllowPathsAuthorizer } from './always-allow-paths.js';
import type { Attributes, Authorizer, RulesAnswer, Verdict } from './authorizer.js';
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

/** The host's answer; when it could not be asked, no opinion with the failure as the reason (a 403, not a 500). */
export class HostAuthorizer implements Authorizer {
  constructor(private readonly webhook: WebhookAuthorizer) {}

  async authorize(a: Attributes): Promise<Verdict> {
    const verdict = await this.webhook.authorize(a);
    if (!verdict.evaluationError) return verdict;
    return { decision: 'noOpinion', reason: verdict.evaluationError };
  }

  rulesFor(): Promise<RulesAnswer> {
    return this.webhook.rulesFor();
  }
}

export function delegatedChain(
  o: DelegatedAuthorization,
  transport: Pick<WebhookTransport, 'post'>,
  webhook: Pick<WebhookAuthorizerOptions, 'selectors' | 'log' | 'observe' | 'now'>,
): AuthorizerChain {
  return new AuthorizerChain([
    new AlwaysAllowPathsAuthorizer(o.alwaysAllowPaths),
    new PrivilegedGroupsAuthorizer(),
    new HostAuthorizer(
      new WebhookAuthorizer(transport, {
        ...webhook,
        version: 'v1',
        authorizedTtlMs: o.authorizedTtlMs,
        unauthorizedTtlMs: o.unauthorizedTtlMs,
        decisionOnError: 'noOpinion',
      }),
    ),
  ]);
}
