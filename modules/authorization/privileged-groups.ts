/** Members of system:masters may do anything (kube's privileged-group authorizer, asked first). */
import { allow, noOpinion, type Attributes, type Authorizer, type Verdict } from './authorizer.js';

export const SYSTEM_MASTERS = 'system:masters';

export class PrivilegedGroupsAuthorizer implements Authorizer {
  constructor(private readonly groups: readonly string[] = [SYSTEM_MASTERS]) {}

  async authorize(a: Attributes): Promise<Verdict> {
    return a.user.groups.some((g) => this.groups.includes(g)) ? allow : noOpinion;
  }
}
