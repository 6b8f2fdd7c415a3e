/**
 * The authorizer chain (kube's authorization union): each authorizer in order; the first `allow` or `deny`
 * decides, and a request no authorizer allows is forbidden (default deny).
 */
import { ApiError } from '../api/index.js';
import type { UserInfo } from '../api/index.js';
import type { Attributes, Authorizer, RulesAnswer, Verdict } from './authorizer.js';

export class AuthorizerChain implements Authorizer {
  constructor(private readonly authorizers: readonly Authorizer[]) {}

  async authorize(attributes: Attributes): Promise<Verdict> {
    const verdict = await this.decide(attributes);
    if (verdict.decision !== 'noOpinion') return verdict;
    // kube's impersonation check words an authorizer's error first, then the reasons
    const why = [verdict.evaluationError, verdict.reason].filter(Boolean).join(': ');
    return { decision: 'deny', reason: why || undefined };
  }

  /**
   * kube's union as the access reviews report it: the first allow or deny with its reason; else no opinion,
   * the authorizers' reasons and errors joined (a SubjectAccessReview nobody decides is neither allowed nor
   * denied).
   */
  async decide(attributes: Attributes): Promise<Verdict> {
    const reasons: string[] = [];
    const errors: string[] = [];
    for (const authorizer of this.authorizers) {
      const verdict = await authorizer.authorize(attributes);
      if (verdict.decision !== 'noOpinion') return verdict;
      if (verdict.reason) reasons.push(verdict.reason);
      if (verdict.evaluationError) errors.push(verdict.evaluationError);
    }
    const out: Verdict = { decision: 'noOpinion' };
    if (reasons.length > 0) out.reason = reasons.join('; ');
    if (errors.length > 0) out.evaluationError = errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`;
    return out;
  }

  /** Every rule resolver's rules, in chain order (kube's union of RuleResolvers). */
  async rulesFor(user: UserInfo, namespace: string): Promise<RulesAnswer> {
    const out: RulesAnswer = { resourceRules: [], nonResourceRules: [], incomplete: false };
    const errors: string[] = [];
    for (const authorizer of this.authorizers) {
      if (!authorizer.rulesFor) continue;
      const r = await authorizer.rulesFor(user, namespace);
      out.resourceRules.push(...r.resourceRules);
      out.nonResourceRules.push(...r.nonResourceRules);
      out.incomplete ||= r.incomplete;
      if (r.evaluationError) errors.push(r.evaluationError);
    }
    if (errors.length > 0) out.evaluationError = errors.join(', ');
    return out;
  }

  /** Resolves when the request is allowed; a 403 Status otherwise (a 500 when an authorizer failed). */
  async check(attributes: Attributes): Promise<void> {
    this.enforce(attributes, await this.decide(attributes));
  }

  /** `check` in two steps, for the pipeline to record the decision (the audit annotations) in between. */
  enforce(attributes: Attributes, verdict: Verdict): void {
    if (verdict.decision === 'allow') return;
    // kube's authorization filter: nobody allowed and an authorizer failed (a webhook down) is the server's fault
    if (verdict.evaluationError)
      throw new ApiError(
        500,
        'InternalError',
        `Internal Server Error: "${attributes.path}": ${verdict.evaluationError}`,
      );
    throw forbidden(attributes, verdict.reason);
  }
}

/** kube's Forbidden answer: what was refused, to whom, where, and the authorizers' reason if any. */
export function forbidden(a: Attributes, reason?: string): ApiError {
  const why = reason ? `: ${reason}` : '';
  if (!a.isResourceRequest) {
    return ApiError.forbidden(`forbidden: User "${a.user.name}" cannot ${a.verb} path "${a.path}"${why}`);
  }
  // kube's NewForbidden: the group-qualified resource (no subresource) first, the subresource in the sentence
  const qualified = a.apiGroup ? `${a.resource}.${a.apiGroup}` : a.resource;
  const what = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  const where = a.namespace ? `in the namespace "${a.namespace}"` : 'at the cluster scope';
  return ApiError.forbidden(
    `${qualified}${a.name ? ` "${a.name}"` : ''} is forbidden: User "${a.user.name}" cannot ${a.verb} resource "${what}" in API group "${a.apiGroup}" ${where}${why}`,
    { group: a.apiGroup, resource: a.resource },
    a.name || undefined,
  );
}
