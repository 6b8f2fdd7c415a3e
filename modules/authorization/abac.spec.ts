/**
 * ABAC: policy lines read as kube reads them (v1beta1, unversioned v0 with its wider defaults, comments and
 * blank lines), malformed lines named by file and line, and kube's matching as a table of facts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseRequestInfo, type UserInfo } from '../api/index.js';
import { AbacAuthorizer, parsePolicyFile, type AbacPolicy } from './abac.js';
import { requestAttributes, type Attributes } from './authorizer.js';

const v1 = (spec: Record<string, unknown>) =>
  JSON.stringify({ apiVersion: 'abac.authorization.kubernetes.io/v1beta1', kind: 'Policy', spec });

const user = (name: string, ...groups: string[]): UserInfo => ({ name, uid: '', groups });
const alice = user('alice', 'system:authenticated');
const bob = user('bob', 'system:authenticated', 'devs');
const anonymous = user('system:anonymous', 'system:unauthenticated');

const req = (u: UserInfo, method: string, path: string): Attributes =>
  requestAttributes(u, parseRequestInfo(method, path, {}));

describe('ABAC policy file', () => {
  it('reads v1beta1 lines, skipping blank lines and # comments', () => {
    const file = [
      '# admins',
      '',
      v1({ user: 'alice', namespace: '*', resource: '*', apiGroup: '*' }),
      '   ',
      '  # x',
    ].join('\n');
    assert.deepEqual(parsePolicyFile(file, 'p.jsonl'), [
      {
        user: 'alice',
        group: '',
        readonly: false,
        apiGroup: '*',
        namespace: '*',
        resource: '*',
        nonResourcePath: '',
      },
    ]);
  });

  it('a * user or group is every authenticated user (v1beta1 conversion)', () => {
    const [u, g] = parsePolicyFile(
      [v1({ user: '*', resource: 'pods' }), v1({ user: 'bob', group: '*', nonResourcePath: '*' })].join('\n'),
      'f',
    );
    assert.equal(u.user, '');
    assert.equal(u.group, 'system:authenticated');
    assert.equal(g.user, '');
    assert.equal(g.group, 'system:authenticated');
  });

  it('unversioned (v0) lines: no subject is every authenticated user, empty namespace/resource mean all', () => {
    const [all, scoped, star] = parsePolicyFile(
      ['{"readonly": true}', '{"user":"bob","namespace":"team","resource":"pods"}', '{"user":"*"}'].join(
        '\n',
      ),
      'f',
    );
    assert.deepEqual(all, {
      user: '',
      group: 'system:authenticated',
      readonly: true,
      apiGroup: '*',
      namespace: '*',
      resource: '*',
      nonResourcePath: '*',
    });
    assert.deepEqual(scoped, {
      user: 'bob',
      group: '',
      readonly: false,
      apiGroup: '*',
      namespace: 'team',
      resource: 'pods',
      nonResourcePath: '',
    });
    assert.equal(star.user, '');
    assert.equal(star.group, 'system:authenticated');
  });

  it('a malformed line is named by file and line', () => {
    const cases: [string, RegExp][] = [
      ['{"user": "alice"', /: error reading policy file \/etc\/abac, line 3: \{"user": "alice": /],
      ['[1]', /line 3: \[1\]: expected a JSON object$/],
      [v1({ readonly: 'yes' }), /line 3: .*: spec\.readonly: expected a boolean$/],
      [v1({ user: 7 }), /line 3: .*: spec\.user: expected a string$/],
      [
        '{"apiVersion":"abac.authorization.kubernetes.io/v2","kind":"Policy","spec":{}}',
        /line 3: .*: no kind "Policy" is registered for version "abac.authorization.kubernetes.io\/v2"$/,
      ],
    ];
    for (const [line, message] of cases)
      assert.throws(() => parsePolicyFile(`# c\n\n${line}\n`, '/etc/abac'), message, line);
  });
});

describe('ABAC matching (kube facts)', () => {
  const policies = (...lines: Record<string, unknown>[]): AbacAuthorizer =>
    new AbacAuthorizer(parsePolicyFile(lines.map(v1).join('\n'), 'f'));

  const table: {
    policy: Record<string, unknown>;
    u: UserInfo;
    method: string;
    path: string;
    allowed: boolean;
  }[] = [
    // subject
    {
      policy: { user: 'alice', namespace: '*', resource: '*', apiGroup: '*' },
      u: alice,
      method: 'GET',
      path: '/api/v1/pods',
      allowed: true,
    },
    {
      policy: { user: 'alice', namespace: '*', resource: '*', apiGroup: '*' },
      u: bob,
      method: 'GET',
      path: '/api/v1/pods',
      allowed: false,
    },
    {
      policy: { group: 'devs', namespace: '*', resource: '*', apiGroup: '*' },
      u: bob,
      method: 'GET',
      path: '/api/v1/pods',
      allowed: true,
    },
    {
      policy: { group: 'devs', namespace: '*', resource: '*', apiGroup: '*' },
      u: alice,
      method: 'GET',
      path: '/api/v1/pods',
      allowed: false,
    },
    // user and group both given: both must match
    {
      policy: { user: 'alice', group: 'devs', namespace: '*', resource: '*', apiGroup: '*' },
      u: alice,
      method: 'GET',
      path: '/api/v1/pods',
      allowed: false,
    },
    {
      policy: { user: 'bob', group: 'devs', namespace: '*', resource: '*', apiGroup: '*' },
      u: bob,
      method: 'GET',
      path: '/api/v1/pods',
      allowed: true,
    },
    // * is authenticated users only; anonymous needs system:unauthenticated
    {
      policy: { user: '*', namespace: '*', resource: '*', apiGroup: '*' },
      u: anonymous,
      method: 'GET',
      path: '/api/v1/pods',
      allowed: false,
    },
    {
      policy: { group: '*', namespace: '*', resource: '*', apiGroup: '*' },
      u: alice,
      method: 'GET',
      path: '/api/v1/pods',
      allowed: true,
    },
    {
      policy: { group: 'system:unauthenticated', nonResourcePath: '/version' },
      u: anonymous,
      method: 'GET',
      path: '/version',
      allowed: true,
    },
    // no subject matches nobody
    {
      policy: { namespace: '*', resource: '*', apiGroup: '*' },
      u: alice,
      method: 'GET',
      path: '/api/v1/pods',
      allowed: false,
    },
    // readonly: get, list, watch only
    {
      policy: { user: 'alice', readonly: true, namespace: '*', resource: '*', apiGroup: '*' },
      u: alice,
      method: 'GET',
      path: '/api/v1/namespaces/a/pods?watch=1',
      allowed: true,
    },
    {
      policy: { user: 'alice', readonly: true, namespace: '*', resource: '*', apiGroup: '*' },
      u: alice,
      method: 'GET',
      path: '/api/v1/namespaces/a/pods/p',
      allowed: true,
    },
    {
      policy: { user: 'alice', readonly: true, namespace: '*', resource: '*', apiGroup: '*' },
      u: alice,
      method: 'POST',
      path: '/api/v1/namespaces/a/pods',
      allowed: false,
    },
    {
      policy: { user: 'alice', readonly: true, namespace: '*', resource: '*', apiGroup: '*' },
      u: alice,
      method: 'DELETE',
      path: '/api/v1/namespaces/a/pods',
      allowed: false,
    },
    // namespace: exact or *, empty only cluster-scoped
    {
      policy: { user: 'alice', namespace: 'a', resource: '*', apiGroup: '*' },
      u: alice,
      method: 'GET',
      path: '/api/v1/namespaces/a/pods',
      allowed: true,
    },
    {
      policy: { user: 'alice', namespace: 'a', resource: '*', apiGroup: '*' },
      u: alice,
      method: 'GET',
      path: '/api/v1/namespaces/b/pods',
      allowed: false,
    },
    {
      policy: { user: 'alice', namespace: 'a', resource: '*', apiGroup: '*' },
      u: alice,
      method: 'GET',
      path: '/api/v1/pods',
      allowed: false,
    },
    {
      policy: { user: 'alice', resource: '*', apiGroup: '*' },
      u: alice,
      method: 'GET',
      path: '/api/v1/nodes',
      allowed: true,
    },
    {
      policy: { user: 'alice', resource: '*', apiGroup: '*' },
      u: alice,
      method: 'GET',
      path: '/api/v1/namespaces/a/pods',
      allowed: false,
    },
    // resource: exact or * (subresources are not part of it)
    {
      policy: { user: 'alice', namespace: '*', resource: 'pods', apiGroup: '*' },
      u: alice,
      method: 'GET',
      path: '/api/v1/namespaces/a/pods/p/log',
      allowed: true,
    },
    {
      policy: { user: 'alice', namespace: '*', resource: 'pods', apiGroup: '*' },
      u: alice,
      method: 'GET',
      path: '/api/v1/namespaces/a/secrets',
      allowed: false,
    },
    {
      policy: { user: 'alice', namespace: '*', apiGroup: '*' },
      u: alice,
      method: 'GET',
      path: '/api/v1/namespaces/a/pods',
      allowed: false,
    },
    // apiGroup: exact or *, empty is the core group
    {
      policy: { user: 'alice', namespace: '*', resource: '*' },
      u: alice,
      method: 'GET',
      path: '/api/v1/namespaces/a/pods',
      allowed: true,
    },
    {
      policy: { user: 'alice', namespace: '*', resource: '*' },
      u: alice,
      method: 'GET',
      path: '/apis/apps/v1/namespaces/a/deployments',
      allowed: false,
    },
    {
      policy: { user: 'alice', namespace: '*', resource: '*', apiGroup: 'apps' },
      u: alice,
      method: 'GET',
      path: '/apis/apps/v1/namespaces/a/deployments',
      allowed: true,
    },
    // non-resource paths: *, exact, trailing * prefix; never a resource request
    {
      policy: { user: 'alice', nonResourcePath: '*' },
      u: alice,
      method: 'GET',
      path: '/healthz/ping',
      allowed: true,
    },
    {
      policy: { user: 'alice', nonResourcePath: '/version' },
      u: alice,
      method: 'GET',
      path: '/version',
      allowed: true,
    },
    {
      policy: { user: 'alice', nonResourcePath: '/version' },
      u: alice,
      method: 'GET',
      path: '/version/x',
      allowed: false,
    },
    {
      policy: { user: 'alice', nonResourcePath: '/healthz/*' },
      u: alice,
      method: 'GET',
      path: '/healthz/etcd',
      allowed: true,
    },
    {
      policy: { user: 'alice', nonResourcePath: '/healthz/*' },
      u: alice,
      method: 'GET',
      path: '/healthz',
      allowed: false,
    },
    {
      policy: { user: 'alice', nonResourcePath: '/apis*' },
      u: alice,
      method: 'GET',
      path: '/apis',
      allowed: true,
    },
    {
      policy: { user: 'alice', nonResourcePath: '*' },
      u: alice,
      method: 'GET',
      path: '/api/v1/pods',
      allowed: false,
    },
    {
      policy: { user: 'alice', readonly: true, nonResourcePath: '*' },
      u: alice,
      method: 'POST',
      path: '/logs',
      allowed: false,
    },
    {
      policy: { user: 'alice', namespace: '*', resource: '*', apiGroup: '*' },
      u: alice,
      method: 'GET',
      path: '/version',
      allowed: false,
    },
  ];

  for (const { policy, u, method, path, allowed } of table)
    it(`${JSON.stringify(policy)}: ${u.name} ${method} ${path} → ${allowed ? 'allowed' : 'no opinion'}`, async () => {
      const verdict = await policies(policy).authorize(req(u, method, path));
      assert.deepEqual(
        verdict,
        allowed ? { decision: 'allow' } : { decision: 'noOpinion', reason: 'No policy matched.' },
      );
    });

  it('v0 lines: a policy naming neither namespace nor resource also allows non-resource paths', async () => {
    const a = new AbacAuthorizer(parsePolicyFile('{"user":"alice"}\n{"user":"bob","resource":"pods"}', 'f'));
    assert.equal((await a.authorize(req(alice, 'GET', '/metrics'))).decision, 'allow');
    assert.equal(
      (await a.authorize(req(alice, 'GET', '/apis/apps/v1/namespaces/x/deployments'))).decision,
      'allow',
    );
    assert.equal((await a.authorize(req(bob, 'GET', '/metrics'))).decision, 'noOpinion');
    assert.equal((await a.authorize(req(bob, 'GET', '/apis/apps/v1/namespaces/x/pods'))).decision, 'allow');
  });
});

describe('ABAC rulesFor', () => {
  it("lists the user's policies in the namespace (or *), readonly as get/list/watch", async () => {
    const policies: AbacPolicy[] = parsePolicyFile(
      [
        v1({ user: 'alice', namespace: 'a', resource: 'pods', apiGroup: '', readonly: true }),
        v1({ user: 'alice', namespace: 'b', resource: 'secrets', apiGroup: '' }),
        v1({
          group: 'system:authenticated',
          namespace: '*',
          resource: '*',
          apiGroup: '*',
          nonResourcePath: '/version',
        }),
        v1({ user: 'bob', namespace: '*', resource: '*', apiGroup: '*' }),
        v1({ user: 'alice', nonResourcePath: '/healthz/*' }),
      ].join('\n'),
      'f',
    );
    assert.deepEqual(await new AbacAuthorizer(policies).rulesFor(alice, 'a'), {
      resourceRules: [
        { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods'], resourceNames: [] },
        { verbs: ['*'], apiGroups: ['*'], resources: ['*'], resourceNames: [] },
      ],
      nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['/version'] }],
      incomplete: false,
    });
  });
});
