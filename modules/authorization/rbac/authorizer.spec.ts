/**
 * The RBAC authorizer over an in-memory policy: subjects (user, group, service account), RoleBinding →
 * ClusterRole in its namespace only, kube's reasons, missing roles, deletes, rulesFor; and the escalation
 * check of role and binding writes with kube's messages.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ApiError,
  parseRequestInfo,
  systemContext,
  type KubeObject,
  type UserInfo,
} from '../../api/index.js';
import type { AdmissionAttributes, ResourceDefinition } from '../../registry/index.js';
import { requestAttributes } from '../authorizer.js';
import { AuthorizerChain } from '../chain.js';
import { RbacAuthorizer } from './authorizer.js';
import { RbacEscalationCheck } from './escalation.js';
import { RbacPolicy } from './policy.js';

const RBAC = 'rbac.authorization.k8s.io';
const role = (name: string, rules: object[], namespace?: string): KubeObject => ({
  metadata: { name, ...(namespace ? { namespace } : {}) },
  rules,
});
const binding = (
  name: string,
  roleRef: { kind: string; name: string },
  subjects: object[],
  namespace?: string,
): KubeObject => ({
  metadata: { name, ...(namespace ? { namespace } : {}) },
  roleRef: { apiGroup: RBAC, ...roleRef },
  subjects,
});
const u = (name: string, groups: string[] = []): UserInfo => ({
  name,
  uid: '',
  groups: [...groups, 'system:authenticated'],
});
const get = (user: UserInfo, path: string, method = 'GET') =>
  requestAttributes(user, parseRequestInfo(method, path, {}));

function policy(): RbacPolicy {
  const p = new RbacPolicy();
  p.setRole(role('reader', [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['configmaps'] }]));
  p.setRole(
    role('leases', [{ verbs: ['*'], apiGroups: ['coordination.k8s.io'], resources: ['leases'] }], 'team'),
  );
  p.setBinding(
    binding('readers', { kind: 'ClusterRole', name: 'reader' }, [
      { kind: 'Group', apiGroup: RBAC, name: 'readers' },
    ]),
  );
  p.setBinding(
    binding(
      'alice-reader',
      { kind: 'ClusterRole', name: 'reader' },
      [{ kind: 'User', apiGroup: RBAC, name: 'alice' }],
      'team',
    ),
  );
  p.setBinding(
    binding('sa-leases', { kind: 'Role', name: 'leases' }, [{ kind: 'ServiceAccount', name: 'bot' }], 'team'),
  );
  p.setBinding(
    binding('ghost', { kind: 'ClusterRole', name: 'missing' }, [
      { kind: 'User', apiGroup: RBAC, name: 'carol' },
    ]),
  );
  return p;
}

describe('RBAC authorizer', () => {
  const rbac = new RbacAuthorizer(policy());
  const cases: {
    name: string;
    user: UserInfo;
    path: string;
    method?: string;
    decision: string;
    reason?: string;
  }[] = [
    {
      name: 'a group through a ClusterRoleBinding, anywhere',
      user: u('bob', ['readers']),
      path: '/api/v1/namespaces/any/configmaps',
      decision: 'allow',
      reason: 'RBAC: allowed by ClusterRoleBinding "readers" of ClusterRole "reader" to Group "readers"',
    },
    {
      name: 'a user through a RoleBinding to a ClusterRole, in its namespace',
      user: u('alice'),
      path: '/api/v1/namespaces/team/configmaps/c',
      decision: 'allow',
      reason: 'RBAC: allowed by RoleBinding "alice-reader/team" of ClusterRole "reader" to User "alice"',
    },
    {
      name: '… and not in another namespace',
      user: u('alice'),
      path: '/api/v1/namespaces/other/configmaps/c',
      decision: 'noOpinion',
    },
    { name: '… nor cluster-wide', user: u('alice'), path: '/api/v1/configmaps', decision: 'noOpinion' },
    {
      name: '… nor another verb',
      user: u('alice'),
      path: '/api/v1/namespaces/team/configmaps/c',
      method: 'DELETE',
      decision: 'noOpinion',
    },
    {
      name: "a service account subject without namespace is the binding's namespace",
      user: u('system:serviceaccount:team:bot', ['system:serviceaccounts', 'system:serviceaccounts:team']),
      path: '/apis/coordination.k8s.io/v1/namespaces/team/leases/l',
      method: 'DELETE',
      decision: 'allow',
      reason: 'RBAC: allowed by RoleBinding "sa-leases/team" of Role "leases" to ServiceAccount "bot/team"',
    },
    {
      name: 'a bot of the same name elsewhere is another account',
      user: u('system:serviceaccount:other:bot'),
      path: '/apis/coordination.k8s.io/v1/namespaces/team/leases/l',
      decision: 'noOpinion',
    },
    {
      name: 'a binding to a missing role: no opinion, with the error as reason',
      user: u('carol'),
      path: '/api/v1/namespaces/team/configmaps',
      decision: 'noOpinion',
      reason: 'RBAC: clusterrole.rbac.authorization.k8s.io "missing" not found',
    },
    {
      name: 'nobody bound: no opinion',
      user: u('dave'),
      path: '/api/v1/namespaces/team/configmaps',
      decision: 'noOpinion',
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const v = await rbac.authorize(get(c.user, c.path, c.method));
      assert.equal(v.decision, c.decision);
      assert.equal(v.reason, c.reason);
    });
  }

  it('a deleted binding or subject no longer grants', async () => {
    const p = policy();
    const a = new RbacAuthorizer(p);
    const path = '/api/v1/namespaces/team/configmaps/c';
    p.setBinding(binding('alice-reader', { kind: 'ClusterRole', name: 'reader' }, [], 'team'));
    assert.equal((await a.authorize(get(u('alice'), path))).decision, 'noOpinion');
    p.setBinding(binding('readers', { kind: 'ClusterRole', name: 'reader' }, []), true);
    assert.equal((await a.authorize(get(u('bob', ['readers']), path))).decision, 'noOpinion');
  });

  it('rulesFor lists cluster-wide and namespace rules', async () => {
    const r = await rbac.rulesFor(u('alice', ['readers']), 'team');
    assert.deepEqual(r.resourceRules, [
      { verbs: ['get', 'list'], apiGroups: [''], resources: ['configmaps'], resourceNames: [] },
      { verbs: ['get', 'list'], apiGroups: [''], resources: ['configmaps'], resourceNames: [] },
    ]);
    assert.equal(r.incomplete, false);
    const carol = await rbac.rulesFor(u('carol'), '');
    assert.equal(carol.incomplete, true);
    assert.equal(carol.evaluationError, 'clusterrole.rbac.authorization.k8s.io "missing" not found');
  });
});

describe('RBAC escalation check', () => {
  const def = (resource: string): ResourceDefinition => ({ group: RBAC, resource }) as ResourceDefinition;
  const write = (
    user: UserInfo,
    resource: string,
    object: KubeObject,
    namespace = 'team',
  ): AdmissionAttributes => ({
    operation: 'CREATE',
    def: def(resource),
    namespace,
    name: object.metadata.name!,
    subresource: '',
    object,
    ctx: { ...systemContext(), user },
  });
  async function refusal(p: Promise<void>): Promise<string> {
    const e = await p.then(
      () => assert.fail('expected 403'),
      (err: unknown) => err,
    );
    assert.ok(e instanceof ApiError && e.code === 403, String(e));
    return e.message;
  }

  const p = policy();
  p.setRole(
    role('escalator', [
      { verbs: ['escalate', 'bind'], apiGroups: [RBAC], resources: ['roles', 'clusterroles'] },
    ]),
  );
  p.setBinding(
    binding(
      'erin',
      { kind: 'ClusterRole', name: 'escalator' },
      [{ kind: 'User', apiGroup: RBAC, name: 'erin' }],
      'team',
    ),
  );
  const chain = new AuthorizerChain([new RbacAuthorizer(p)]);
  const check = new RbacEscalationCheck(p, () => chain);
  const secrets = role('secrets', [{ verbs: ['get'], apiGroups: [''], resources: ['secrets'] }], 'team');

  it('a role granting what the writer holds passes; more is refused with what is missing', async () => {
    await check.validate(
      write(
        u('alice'),
        'roles',
        role('r', [{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'] }], 'team'),
      ),
    );
    assert.equal(
      await refusal(check.validate(write(u('alice'), 'roles', secrets))),
      'roles.rbac.authorization.k8s.io "secrets" is forbidden: user "alice" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}',
    );
  });

  it('escalate on roles allows any role; system:masters always may', async () => {
    await check.validate(write(u('erin'), 'roles', secrets));
    await check.validate(write({ name: 'root', uid: '', groups: ['system:masters'] }, 'roles', secrets));
  });

  it('a binding needs the role held or bind on it', async () => {
    const toAdmin = binding(
      'b',
      { kind: 'ClusterRole', name: 'reader' },
      [{ kind: 'User', apiGroup: RBAC, name: 'x' }],
      'team',
    );
    await check.validate(write(u('alice'), 'rolebindings', toAdmin));
    assert.match(
      await refusal(check.validate(write(u('dave'), 'rolebindings', toAdmin))),
      /^rolebindings\.rbac\.authorization\.k8s\.io "b" is forbidden: user "dave" .* not currently held:\n\{APIGroups:\[""\], Resources:\["configmaps"\], Verbs:\["get" "list"\]\}$/,
    );
    await check.validate(write(u('erin'), 'rolebindings', toAdmin));
    const missing = binding('m', { kind: 'Role', name: 'nope' }, [], 'team');
    const e = await check.validate(write(u('dave'), 'rolebindings', missing)).catch((err: unknown) => err);
    assert.ok(e instanceof ApiError && e.code === 404, String(e));
    assert.equal(e.message, 'role.rbac.authorization.k8s.io "nope" not found');
  });

  it('an update of owners and finalizers only is no grant', async () => {
    const old = { ...secrets, metadata: { ...secrets.metadata, resourceVersion: '5' } };
    const next = { ...secrets, metadata: { ...secrets.metadata, finalizers: ['example.com/hold'] } };
    await check.validate({ ...write(u('dave'), 'roles', next), operation: 'UPDATE', oldObject: old });
    const widened = { ...next, rules: [{ verbs: ['*'], apiGroups: [''], resources: ['secrets'] }] };
    await refusal(
      check.validate({ ...write(u('dave'), 'roles', widened), operation: 'UPDATE', oldObject: old }),
    );
  });

  it('an aggregationRule needs every permission', async () => {
    const agg = { metadata: { name: 'agg' }, aggregationRule: { clusterRoleSelectors: [{}] }, rules: [] };
    assert.equal(
      await refusal(check.validate(write(u('alice'), 'clusterroles', agg, ''))),
      'clusterroles.rbac.authorization.k8s.io "agg" is forbidden: must have cluster-admin privileges to use the aggregationRule',
    );
  });
});
