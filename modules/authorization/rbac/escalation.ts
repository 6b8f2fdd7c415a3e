/**
 * kube's RBAC escalation prevention, as a validating admission step on roles and bindings: a role may grant
 * only what its writer holds (unless it may `escalate` roles), a binding only a role whose permissions the
 * writer holds (unless it may `bind` it). system:masters always may. Asked of the whole authorizer chain.
 */
import { isDeepStrictEqual } from 'node:util';
import { ApiError, isPlainObject, type KubeObject, type UserInfo } from '../../api/index.js';
import type { AdmissionAttributes } from '../../registry/index.js';
import type { Authorizer } from '../authorizer.js';
import { SYSTEM_MASTERS } from '../privileged-groups.js';
import { covers, describeMissing, goQuotedList } from './coverage.js';
import type { RbacPolicy } from './policy.js';
import type { PolicyRule } from './rules.js';

const RBAC = 'rbac.authorization.k8s.io';

/** Every permission there is: what an aggregationRule may gather. */
const fullAuthority: PolicyRule[] = [
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
  { verbs: ['*'], nonResourceURLs: ['*'] },
];

const rulesOf = (v: unknown): PolicyRule[] =>
  Array.isArray(v) ? (v.filter(isPlainObject) as PolicyRule[]) : [];

function withoutGcFields(obj: KubeObject): KubeObject {
  const {
    ownerReferences: _o,
    finalizers: _f,
    managedFields: _m,
    resourceVersion: _r,
    ...metadata
  } = obj.metadata;
  return { ...obj, metadata };
}

/** kube's IsOnlyMutatingGCFields: the objects differ at most in owner references and finalizers. */
function onlyGcFieldsChanged(obj: KubeObject, old: KubeObject): boolean {
  return isDeepStrictEqual(withoutGcFields(obj), withoutGcFields(old));
}

export class RbacEscalationCheck {
  readonly name = 'RBACEscalation';

  constructor(
    private readonly policy: RbacPolicy,
    private readonly authorizer: () => Authorizer,
    /** resolves once the policy holds every stored role and binding */
    private readonly ready: () => Promise<void> = () => Promise.resolve(),
  ) {}

  async validate(a: AdmissionAttributes): Promise<void> {
    if (a.def.group !== RBAC || a.subresource || !a.object) return;
    if (a.operation !== 'CREATE' && a.operation !== 'UPDATE') return;
    const user = a.ctx.user;
    if (user.groups.includes(SYSTEM_MASTERS)) return;
    // what the garbage collector changes (owners, finalizers) never grants anything
    if (a.oldObject && onlyGcFieldsChanged(a.object, a.oldObject)) return;
    await this.ready();
    const qualified = `${a.def.resource}.${RBAC}`;
    const refuse = (why: string) =>
      ApiError.forbidden(
        `${qualified} "${a.name}" is forbidden: ${why}`,
        { group: RBAC, resource: a.def.resource },
        a.name,
      );
    switch (a.def.resource) {
      case 'roles':
      case 'clusterroles': {
        if (await this.allowed(user, 'escalate', a.def.resource, a.name, a.namespace)) return;
        // an aggregationRule may gather anything: setting, changing or dropping one needs every permission
        const aggregates =
          isPlainObject(a.object.aggregationRule) || isPlainObject(a.oldObject?.aggregationRule);
        if (a.def.resource === 'clusterroles' && aggregates) {
          if (!this.holds(user, '', fullAuthority).covered)
            throw refuse('must have cluster-admin privileges to use the aggregationRule');
        }
        this.confirm(user, a.namespace, rulesOf(a.object.rules), refuse);
        return;
      }
      case 'rolebindings':
      case 'clusterrolebindings': {
        const ref = isPlainObject(a.object.roleRef) ? a.object.roleRef : {};
        const kind = String(ref.kind ?? '');
        const name = String(ref.name ?? '');
        const resource = kind === 'Role' ? 'roles' : 'clusterroles';
        if (await this.allowed(user, 'bind', resource, name, a.namespace)) return;
        const rules =
          kind === 'Role' ? this.policy.roleRulesIn(a.namespace, name) : this.policy.clusterRoleRules(name);
        // kube answers with its role lister's NotFound (singular resource)
        if (!rules) throw ApiError.notFound({ group: RBAC, resource: kind.toLowerCase() }, name);
        this.confirm(user, a.namespace, rules, refuse);
        return;
      }
    }
  }

  private async allowed(user: UserInfo, verb: string, resource: string, name: string, namespace: string) {
    const verdict = await this.authorizer().authorize({
      user,
      verb,
      isResourceRequest: true,
      path: '',
      namespace,
      apiGroup: RBAC,
      apiVersion: '*',
      resource,
      subresource: '',
      name,
    });
    return verdict.decision === 'allow';
  }

  private holds(user: UserInfo, namespace: string, rules: PolicyRule[]) {
    const held: PolicyRule[] = [];
    const errors = this.policy.visit(user, namespace, (g) => void held.push(...g.rules));
    return { ...covers(held, rules), errors };
  }

  /** kube's ConfirmNoEscalation and its message. */
  private confirm(
    user: UserInfo,
    namespace: string,
    rules: PolicyRule[],
    refuse: (why: string) => ApiError,
  ): void {
    const { covered, missing, errors } = this.holds(user, namespace, rules);
    if (covered) return;
    let msg = `user "${user.name}" (groups=${goQuotedList(user.groups)}) is attempting to grant RBAC permissions not currently held:\n${describeMissing(missing)}`;
    if (errors.length > 0) msg += `; resolution errors: [${errors.join(' ')}]`;
    throw refuse(msg);
  }
}
