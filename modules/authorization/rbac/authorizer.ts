/**
 * kube's RBAC authorizer: allowed when a rule of a role bound to the user (directly, through a group, or as
 * a service account) matches; otherwise no opinion. Read from memory only (`RbacPolicy`).
 */
import type { UserInfo } from '../../api/index.js';
import {
  allow,
  noOpinion,
  type Attributes,
  type Authorizer,
  type RulesAnswer,
  type Verdict,
} from '../authorizer.js';
import { describeGrant, type RbacPolicy } from './policy.js';
import { ruleAllows, type PolicyRule } from './rules.js';

export class RbacAuthorizer implements Authorizer {
  private synced = false;

  /** `ready`: resolves once the policy holds every stored role and binding */
  constructor(
    readonly policy: RbacPolicy,
    private readonly ready: Promise<void> = Promise.resolve(),
  ) {
    void ready.then(() => (this.synced = true));
  }

  async authorize(a: Attributes): Promise<Verdict> {
    if (!this.synced) await this.ready;
    let reason = '';
    const errors = this.policy.visit(a.user, a.namespace, (g) => {
      if (!g.rules.some((r) => ruleAllows(a, r))) return false;
      reason = `RBAC: allowed by ${describeGrant(g)}`;
      return true;
    });
    if (reason) return { ...allow, reason };
    return errors.length > 0 ? { decision: 'noOpinion', reason: `RBAC: ${aggregate(errors)}` } : noOpinion;
  }

  /** The rules `user` holds in `namespace`, cluster-wide ones included (kube's RulesFor). */
  async rulesFor(user: UserInfo, namespace: string): Promise<RulesAnswer> {
    if (!this.synced) await this.ready;
    const { rules, errors } = this.heldRules(user, namespace);
    const answer: RulesAnswer = { resourceRules: [], nonResourceRules: [], incomplete: errors.length > 0 };
    for (const r of rules) {
      if (r.nonResourceURLs?.length) {
        answer.nonResourceRules.push({
          verbs: [...(r.verbs ?? [])],
          nonResourceURLs: [...r.nonResourceURLs],
        });
      } else {
        answer.resourceRules.push({
          verbs: [...(r.verbs ?? [])],
          apiGroups: [...(r.apiGroups ?? [])],
          resources: [...(r.resources ?? [])],
          resourceNames: [...(r.resourceNames ?? [])],
        });
      }
    }
    if (errors.length > 0) answer.evaluationError = aggregate(errors);
    return answer;
  }

  /** Every rule the user holds in `namespace` ('' : cluster-wide only), and the bindings' errors. */
  heldRules(user: UserInfo, namespace: string): { rules: PolicyRule[]; errors: string[] } {
    const rules: PolicyRule[] = [];
    const errors = this.policy.visit(user, namespace, (g) => void rules.push(...g.rules));
    return { rules, errors };
  }
}

/** utilerrors.NewAggregate's text: one error as is, several in brackets. */
function aggregate(errors: string[]): string {
  return errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`;
}
