/**
 * kube's AlwaysAllow and AlwaysDeny modes. AlwaysDeny has no opinion rather than a deny (as kube's): a mode
 * after it may still allow, and a request nobody allows is forbidden anyway.
 */
import { allow, type Authorizer, type RulesAnswer, type Verdict } from './authorizer.js';

export class AlwaysAllowAuthorizer implements Authorizer {
  async authorize(): Promise<Verdict> {
    return allow;
  }

  async rulesFor(): Promise<RulesAnswer> {
    return {
      resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], resourceNames: [] }],
      nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
      incomplete: false,
    };
  }
}

const denied: Verdict = Object.freeze({ decision: 'noOpinion', reason: 'Everything is forbidden.' });

export class AlwaysDenyAuthorizer implements Authorizer {
  async authorize(): Promise<Verdict> {
    return denied;
  }

  async rulesFor(): Promise<RulesAnswer> {
    return { resourceRules: [], nonResourceRules: [], incomplete: false };
  }
}
