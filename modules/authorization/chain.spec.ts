/**
 * The authorizer chain: the first allow or deny decides, later authorizers are not asked; a request nobody
 * allows is denied (default deny); a refusal is kube's Forbidden Status, worded for resources (cluster-scoped
 * or in a namespace, with subresource and name) and for non-resource paths.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError, parseRequestInfo, type UserInfo } from '../api/index.js';
import {
  allow,
  noOpinion,
  requestAttributes,
  type Attributes,
  type Authorizer,
  type Verdict,
} from './authorizer.js';
import { AuthorizerChain, forbidden } from './chain.js';
import { PrivilegedGroupsAuthorizer } from './privileged-groups.js';
import { RbacAuthorizer } from './rbac/authorizer.js';
import { RbacPolicy } from './rbac/policy.js';
import { defaultClusterRoleBindings, defaultClusterRoles } from './rbac/bootstrap-policy.js';
import { authorizerChain } from './modes.js';

class Fixed implements Authorizer {
  calls = 0;
  constructor(private readonly verdict: Verdict) {}
  async authorize(): Promise<Verdict> {
    this.calls++;
    return this.verdict;
  }
}

const alice: UserInfo = { name: 'alice', uid: '', groups: ['system:authenticated'] };
const anonymous: UserInfo = { name: 'system:anonymous', uid: '', groups: ['system:unauthenticated'] };
const admin: UserInfo = { name: 'admin', uid: '', groups: ['system:masters'] };

const attrs = (user: UserInfo, method: string, path: string): Attributes =>
  requestAttributes(user, parseRequestInfo(method, path, {}));

async function refusal(p: Promise<unknown>): Promise<ApiError> {
  const e = await p.then(
    () => assert.fail('expected 403'),
    (err: unknown) => err,
  );
  assert.ok(e instanceof ApiError, String(e));
  assert.equal(e.code, 403);
  assert.equal(e.reason, 'Forbidden');
  return e;
}

describe('AuthorizerChain', () => {
  const a = attrs(alice, 'GET', '/api/v1/namespaces');

  it('the first allow decides; later authorizers are not asked', async () => {
    const skip = new Fixed(noOpinion);
    const yes = new Fixed(allow);
    const no = new Fixed({ decision: 'deny', reason: 'never' });
    const chain = new AuthorizerChain([skip, yes, no]);
    assert.equal((await chain.authorize(a)).decision, 'allow');
    await chain.check(a);
    assert.deepEqual([skip.calls, yes.calls, no.calls], [2, 2, 0]);
  });

  it('the first deny decides; later authorizers are not asked', async () => {
    const no = new Fixed({ decision: 'deny', reason: 'blocked by policy' });
    const yes = new Fixed(allow);
    const chain = new AuthorizerChain([no, yes]);
    assert.deepEqual(await chain.authorize(a), { decision: 'deny', reason: 'blocked by policy' });
    const e = await refusal(chain.check(a));
    assert.match(e.message, /: blocked by policy$/);
    assert.equal(yes.calls, 0);
  });

  it('nobody allowing is a deny, with the reasons of those without opinion', async () => {
    assert.deepEqual(await new AuthorizerChain([]).authorize(a), { decision: 'deny', reason: undefined });
    const chain = new AuthorizerChain([
      new Fixed({ decision: 'noOpinion', reason: 'no RBAC rule' }),
      new Fixed(noOpinion),
      new Fixed({ decision: 'noOpinion', reason: 'not a node' }),
    ]);
    assert.deepEqual(await chain.authorize(a), { decision: 'deny', reason: 'no RBAC rule; not a node' });
    const e = await refusal(chain.check(a));
    assert.equal(
      e.message,
      'namespaces is forbidden: User "alice" cannot list resource "namespaces" in API group "" at the cluster scope: no RBAC rule; not a node',
    );
  });

  it('the default chain: masters allowed; public paths and discovery through the default RBAC roles only', async () => {
    const policy = new RbacPolicy();
    for (const r of defaultClusterRoles) policy.setRole(r);
    for (const b of defaultClusterRoleBindings) policy.setBinding(b);
    const chain = await authorizerChain([], { RBAC: () => new RbacAuthorizer(policy) });
    await chain.check(attrs(admin, 'DELETE', '/api/v1/namespaces/x'));
    await refusal(chain.check(attrs(alice, 'DELETE', '/api/v1/namespaces/x')));
    for (const path of ['/healthz', '/livez', '/readyz', '/version']) {
      await chain.check(attrs(anonymous, 'GET', path));
    }
    for (const path of ['/api', '/apis/coordination.k8s.io/v1', '/openapi/v3']) {
      await chain.check(attrs(alice, 'GET', path));
      await refusal(chain.check(attrs(anonymous, 'GET', path)));
    }
    await refusal(chain.check(attrs(anonymous, 'POST', '/version')));
    await refusal(chain.check(attrs(anonymous, 'GET', '/metrics')));
    await refusal(chain.check(attrs(anonymous, 'GET', '/api/v1/namespaces')));
    await refusal(chain.check(attrs({ ...alice, groups: [] }, 'GET', '/api')));
  });
});

describe('forbidden messages', () => {
  it('a cluster-scoped resource', () => {
    const e = forbidden(attrs(anonymous, 'GET', '/api/v1/namespaces'));
    assert.equal(e.code, 403);
    assert.equal(
      e.message,
      'namespaces is forbidden: User "system:anonymous" cannot list resource "namespaces" in API group "" at the cluster scope',
    );
    assert.deepEqual(JSON.parse(JSON.stringify(e.toStatus())).details, { kind: 'namespaces' });
  });

  it('a named object in a namespace, in a group: the resource qualified by its group first', () => {
    const e = forbidden(attrs(alice, 'DELETE', '/apis/coordination.k8s.io/v1/namespaces/team/leases/l1'));
    assert.equal(
      e.message,
      'leases.coordination.k8s.io "l1" is forbidden: User "alice" cannot delete resource "leases" in API group "coordination.k8s.io" in the namespace "team"',
    );
    assert.deepEqual(e.toStatus().details, { name: 'l1', group: 'coordination.k8s.io', kind: 'leases' });
  });

  it('a subresource: named in the sentence, not in the qualified resource (kube NewForbidden)', () => {
    // kube's request info puts /namespaces/{name}/status in the namespace {name}
    const e = forbidden(attrs(alice, 'PUT', '/api/v1/namespaces/team/status'));
    assert.equal(
      e.message,
      'namespaces "team" is forbidden: User "alice" cannot update resource "namespaces/status" in API group "" in the namespace "team"',
    );
    const exec = forbidden(
      attrs(alice, 'GET', '/apis/coordination.k8s.io/v1/namespaces/team/leases/l1/status'),
    );
    assert.equal(
      exec.message,
      'leases.coordination.k8s.io "l1" is forbidden: User "alice" cannot get resource "leases/status" in API group "coordination.k8s.io" in the namespace "team"',
    );
  });

  it('a non-resource path, with a reason', () => {
    const e = forbidden(attrs(anonymous, 'GET', '/metrics'), 'no rule');
    assert.equal(e.message, 'forbidden: User "system:anonymous" cannot get path "/metrics": no rule');
    assert.equal(e.toStatus().details, undefined);
  });
});

describe('authorizerChain (--authorization-mode)', () => {
  it('AlwaysAllow allows everyone; AlwaysDeny has no opinion, so what nobody allows is forbidden', async () => {
    const open = await authorizerChain(['AlwaysAllow']);
    await open.check(attrs(anonymous, 'DELETE', '/api/v1/namespaces/x'));
    const closed = await authorizerChain(['AlwaysDeny']);
    const e = await refusal(closed.check(attrs(alice, 'GET', '/api/v1/namespaces')));
    assert.match(e.message, /: Everything is forbidden\.$/);
    // system:masters comes first, whatever the modes
    await closed.check(attrs(admin, 'GET', '/api/v1/namespaces'));
    await (
      await authorizerChain(['AlwaysDeny', 'AlwaysAllow'])
    ).check(attrs(alice, 'GET', '/api/v1/namespaces'));
  });

  it('a mode without an authorizer is refused at start', async () => {
    await assert.rejects(authorizerChain(['Webhook']), /--authorization-mode: Webhook is not served yet/);
  });
});

describe('AuthorizerChain.rulesFor', () => {
  it("joins the rule resolvers' rules in order; system:masters' authorizer lists none", async () => {
    const chain = await authorizerChain(['AlwaysDeny', 'AlwaysAllow']);
    assert.deepEqual(await chain.rulesFor(alice, 'default'), {
      resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], resourceNames: [] }],
      nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
      incomplete: false,
    });
    const unsure: Authorizer = {
      authorize: async () => noOpinion,
      rulesFor: async () => ({
        resourceRules: [],
        nonResourceRules: [],
        incomplete: true,
        evaluationError: 'cannot list',
      }),
    };
    const r = await new AuthorizerChain([new PrivilegedGroupsAuthorizer(), unsure, unsure]).rulesFor(
      admin,
      '',
    );
    assert.deepEqual(r, {
      resourceRules: [],
      nonResourceRules: [],
      incomplete: true,
      evaluationError: 'cannot list, cannot list',
    });
  });
});

describe('AuthorizerChain.decide and an authorizer that fails', () => {
  const failing: Authorizer = {
    authorize: async () => ({ decision: 'noOpinion', evaluationError: 'webhook down' }),
  };

  it('decide: no opinion when nobody decides (an access review is then neither allowed nor denied)', async () => {
    const chain = new AuthorizerChain([
      new Fixed({ decision: 'noOpinion', reason: 'a' }),
      failing,
      new Fixed({ decision: 'noOpinion', reason: 'b' }),
    ]);
    assert.deepEqual(await chain.decide(attrs(alice, 'GET', '/api/v1/namespaces')), {
      decision: 'noOpinion',
      reason: 'a; b',
      evaluationError: 'webhook down',
    });
    const deny = new AuthorizerChain([failing, new Fixed({ decision: 'deny', reason: 'no' })]);
    assert.deepEqual(await deny.decide(attrs(alice, 'GET', '/api/v1/namespaces')), {
      decision: 'deny',
      reason: 'no',
    });
  });

  it('check: a later allow still allows; nobody allowing after a failure is a 500, as kube answers', async () => {
    await new AuthorizerChain([failing, new Fixed(allow)]).check(attrs(alice, 'GET', '/api/v1/namespaces'));
    const e = await new AuthorizerChain([failing]).check(attrs(alice, 'GET', '/api/v1/namespaces')).then(
      () => assert.fail('expected 500'),
      (err: unknown) => err as ApiError,
    );
    assert.equal(e.code, 500);
    assert.equal(e.message, 'Internal Server Error: "/api/v1/namespaces": webhook down');
  });

  it("authorize (impersonation's check): the error first, then the reasons", async () => {
    const chain = new AuthorizerChain([new Fixed({ decision: 'noOpinion', reason: 'r' }), failing]);
    assert.deepEqual(await chain.authorize(attrs(alice, 'GET', '/api/v1/namespaces')), {
      decision: 'deny',
      reason: 'webhook down: r',
    });
  });
});
