/**
 * Impersonation: every impersonated attribute (user or service account, each group, the UID, each extra
 * value) is authorized with verb `impersonate` for the actor, through a real AuthorizerChain; a service
 * account with no groups given gets the system:serviceaccounts groups; each refusal is a 403 naming what.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError, type UserInfo } from '../api/index.js';
import {
  allow,
  AuthorizerChain,
  noOpinion,
  PrivilegedGroupsAuthorizer,
  type Attributes,
  type Authorizer,
  type Verdict,
} from '../authorization/index.js';
import { Impersonation, impersonationHeaders, impersonationRequest } from './impersonation.js';

/** Records every question; allows unless `refuse` says otherwise (then says no opinion: default deny). */
class Recording implements Authorizer {
  readonly asked: Attributes[] = [];
  constructor(private readonly refuse: (a: Attributes) => boolean = () => false) {}
  async authorize(a: Attributes): Promise<Verdict> {
    this.asked.push(a);
    return this.refuse(a) ? noOpinion : allow;
  }
}

const actor: UserInfo = Object.freeze({
  name: 'alice',
  uid: 'uid-alice',
  groups: Object.freeze(['dev', 'system:authenticated']) as string[],
});

function setup(refuse?: (a: Attributes) => boolean) {
  const recording = new Recording(refuse);
  return { recording, impersonation: new Impersonation(new AuthorizerChain([recording])) };
}

/** what was asked, in a form easy to compare */
const questions = (r: Recording) =>
  r.asked.map((a) => {
    assert.equal(a.user, actor, 'the actor is asked about, not the impersonated user');
    assert.equal(a.verb, 'impersonate');
    assert.equal(a.isResourceRequest, true);
    return [a.apiGroup, a.resource, a.subresource, a.namespace, a.name].join('|');
  });

async function forbidden(p: Promise<unknown>): Promise<ApiError> {
  const e = await p.then(
    () => assert.fail('expected 403'),
    (err: unknown) => err,
  );
  assert.ok(e instanceof ApiError, String(e));
  assert.equal(e.code, 403, e.message);
  assert.equal(e.reason, 'Forbidden');
  return e;
}

describe('Impersonation', () => {
  it('no Impersonate-* headers: the actor itself, nothing asked', async () => {
    const { recording, impersonation } = setup();
    assert.equal(await impersonation.actAs(actor, { 'user-agent': 'x' }), actor);
    assert.equal(recording.asked.length, 0);
  });

  it('a user with groups, a UID and extras: each is authorized, then the new user is built', async () => {
    const { recording, impersonation } = setup();
    const user = await impersonation.actAs(actor, {
      'impersonate-user': 'bob',
      'impersonate-group': ['g1', 'g2'],
      'impersonate-uid': 'uid-bob',
      'impersonate-extra-scopes': ['view', 'edit'],
      'impersonate-extra-acme.com%2fproject': 'p1',
    });
    assert.deepEqual(questions(recording), [
      '|users|||bob',
      '|groups|||g1',
      '|groups|||g2',
      'authentication.k8s.io|uids|||uid-bob',
      'authentication.k8s.io|userextras|scopes||view',
      'authentication.k8s.io|userextras|scopes||edit',
      'authentication.k8s.io|userextras|acme.com/project||p1',
    ]);
    assert.deepEqual(user, {
      name: 'bob',
      uid: 'uid-bob',
      groups: ['g1', 'g2', 'system:authenticated'],
      extra: { scopes: ['view', 'edit'], 'acme.com/project': ['p1'] },
    });
  });

  it('a repeated Impersonate-Group header is several groups; a comma belongs to the name', async () => {
    const { impersonation } = setup();
    const headers = impersonationHeaders([
      'Impersonate-User',
      'bob',
      'Impersonate-Group',
      'a',
      'impersonate-group',
      'b,c',
      'Accept',
      'x',
    ]);
    assert.deepEqual(headers, { 'impersonate-user': ['bob'], 'impersonate-group': ['a', 'b,c'] });
    const user = await impersonation.actAs(actor, headers);
    assert.deepEqual(user.groups, ['a', 'b,c', 'system:authenticated']);
  });

  it('a service account: authorized as serviceaccounts in its namespace, with its groups when none given', async () => {
    const { recording, impersonation } = setup();
    const user = await impersonation.actAs(actor, {
      'impersonate-user': 'system:serviceaccount:ns1:builder',
    });
    assert.deepEqual(questions(recording), ['|serviceaccounts||ns1|builder']);
    assert.deepEqual(user, {
      name: 'system:serviceaccount:ns1:builder',
      uid: '',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:ns1', 'system:authenticated'],
    });
  });

  it('a service account with groups given: those groups, each authorized', async () => {
    const { recording, impersonation } = setup();
    const user = await impersonation.actAs(actor, {
      'impersonate-user': 'system:serviceaccount:ns1:builder',
      'impersonate-group': 'only-this',
    });
    assert.deepEqual(questions(recording), ['|serviceaccounts||ns1|builder', '|groups|||only-this']);
    assert.deepEqual(user.groups, ['only-this', 'system:authenticated']);
  });

  it('impersonating system:anonymous implies system:unauthenticated, not system:authenticated', async () => {
    const { impersonation } = setup();
    const user = await impersonation.actAs(actor, { 'impersonate-user': 'system:anonymous' });
    assert.deepEqual(user, { name: 'system:anonymous', uid: '', groups: ['system:unauthenticated'] });
  });

  it('each attribute refused is a 403 naming it, and nothing after it is asked', async () => {
    const headers = {
      'impersonate-user': 'bob',
      'impersonate-group': 'g1',
      'impersonate-uid': 'uid-bob',
      'impersonate-extra-scopes': 'view',
    };
    const cases: [string, string][] = [
      [
        'users',
        'users "bob" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope',
      ],
      [
        'groups',
        'groups "g1" is forbidden: User "alice" cannot impersonate resource "groups" in API group "" at the cluster scope',
      ],
      [
        'uids',
        'uids.authentication.k8s.io "uid-bob" is forbidden: User "alice" cannot impersonate resource "uids" in API group "authentication.k8s.io" at the cluster scope',
      ],
      [
        'userextras',
        'userextras.authentication.k8s.io "view" is forbidden: User "alice" cannot impersonate resource "userextras/scopes" in API group "authentication.k8s.io" at the cluster scope',
      ],
    ];
    for (const [resource, message] of cases) {
      const { recording, impersonation } = setup((a) => a.resource === resource);
      const e = await forbidden(impersonation.actAs(actor, headers));
      assert.equal(e.message, message);
      assert.equal(recording.asked.at(-1)!.resource, resource, 'refused at this step');
    }
  });

  it('a refused service account is a 403 in its namespace', async () => {
    const { impersonation } = setup((a) => a.resource === 'serviceaccounts');
    const e = await forbidden(
      impersonation.actAs(actor, { 'impersonate-user': 'system:serviceaccount:ns1:builder' }),
    );
    assert.equal(
      e.message,
      'serviceaccounts "builder" is forbidden: User "alice" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "ns1"',
    );
  });

  it('with the chain kube starts with: system:masters may impersonate, others may not', async () => {
    const chain = new AuthorizerChain([new PrivilegedGroupsAuthorizer()]);
    const impersonation = new Impersonation(chain);
    const admin: UserInfo = { name: 'admin', uid: '', groups: ['system:masters'] };
    assert.equal((await impersonation.actAs(admin, { 'impersonate-user': 'bob' })).name, 'bob');
    await forbidden(impersonation.actAs(actor, { 'impersonate-user': 'bob' }));
  });

  it('headers that cannot be honoured are 400', () => {
    const bad = (headers: Record<string, string | string[]>, message: RegExp) =>
      assert.throws(
        () => impersonationRequest(headers),
        (e: unknown) => e instanceof ApiError && e.code === 400 && message.test(e.message),
      );
    bad({ 'impersonate-group': 'g' }, /without impersonating a user/);
    bad({ 'impersonate-uid': 'u' }, /without impersonating a user/);
    bad({ 'impersonate-extra-scopes': 'view' }, /without impersonating a user/);
    bad({ 'impersonate-user': ['a', 'b'] }, /exactly one user/);
    bad({ 'impersonate-user': '' }, /exactly one user/);
    bad({ 'impersonate-user': 'a', 'impersonate-uid': ['1', '2'] }, /exactly one UID/);
    bad({ 'impersonate-user': 'a', 'impersonate-extra-%zz': 'v' }, /invalid Impersonate-Extra/);
  });
});
