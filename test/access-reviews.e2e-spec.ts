/**
 * Access reviews and ABAC against the real server, with the real kubectl 1.32: `kubectl auth can-i` under an
 * ABAC policy file (yes/no and exit codes for resources, subresources, names, non-resource URLs, --as, -n,
 * --all-namespaces, --list); the four authorization.k8s.io reviews' bodies and refusals over HTTPS; a
 * malformed policy line stops the server at start, naming the file and line.
 */
import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { kubectl } from './support/kubectl.js';
import { kubeconfigFor } from './support/kubeconfig.js';
import { serverExit } from './support/server.js';
import { useServer } from './support/use-server.js';

const AUTHZ = '/apis/authorization.k8s.io/v1';

const policy = (spec: Record<string, unknown>) =>
  JSON.stringify({ apiVersion: 'abac.authorization.kubernetes.io/v1beta1', kind: 'Policy', spec });

const POLICIES = [
  '# every authenticated user: discovery and asking about themselves',
  policy({ group: 'system:authenticated', readonly: true, nonResourcePath: '/api*' }),
  policy({
    group: 'system:authenticated',
    namespace: '*',
    apiGroup: 'authorization.k8s.io',
    resource: 'selfsubjectaccessreviews',
  }),
  policy({
    group: 'system:authenticated',
    namespace: '*',
    apiGroup: 'authorization.k8s.io',
    resource: 'selfsubjectrulesreviews',
  }),
  '',
  '# alice: configmaps and service accounts in team, namespaces read-only, health paths read-only',
  policy({ user: 'alice', namespace: 'team', apiGroup: '', resource: 'configmaps' }),
  policy({ user: 'alice', namespace: 'team', apiGroup: '', resource: 'serviceaccounts' }),
  policy({ user: 'alice', namespace: '*', apiGroup: '', resource: 'namespaces', readonly: true }),
  // a namespace, so SelfSubjectRulesReview lists it (kube's ABAC lists a policy only in its namespaces)
  policy({ user: 'alice', namespace: '*', readonly: true, nonResourcePath: '/healthz/*' }),
  '# an unversioned (v0) line: bob reads everything',
  '{"user":"bob","readonly":true}',
].join('\n');

async function tempFile(name: string, text: string): Promise<string> {
  const file = path.join(await mkdtemp(path.join(tmpdir(), 'pgkube-abac-')), name);
  await writeFile(file, text, { mode: 0o600 });
  return file;
}

describe('ABAC and access reviews', () => {
  const s = useServer(async () => ({
    args: [
      '--authorization-mode=ABAC',
      `--authorization-policy-file=${await tempFile('policy.jsonl', POLICIES)}`,
      `--token-auth-file=${await tempFile('tokens.csv', 'alice-token,alice,uid-alice\nbob-token,bob,uid-bob,"readers"\ncarl-token,carl,uid-carl\n')}`,
    ],
  }));
  let alice: string;
  let bob: string;
  let carl: string;
  before(async () => {
    alice = await kubeconfigFor(s.kubeconfig, { token: 'alice-token' });
    bob = await kubeconfigFor(s.kubeconfig, { token: 'bob-token' });
    carl = await kubeconfigFor(s.kubeconfig, { token: 'carl-token' });
  });

  const canI = async (kubeconfig: string, ...args: string[]) => {
    const r = await kubectl(['auth', 'can-i', ...args], { kubeconfig, timeoutMs: 60_000 });
    return { code: r.code, out: r.stdout.trim(), err: r.stderr };
  };
  const yes = async (kubeconfig: string, ...args: string[]) => {
    const r = await canI(kubeconfig, ...args);
    assert.deepEqual([r.code, r.out], [0, 'yes'], `can-i ${args.join(' ')}: ${r.err}`);
  };
  const no = async (kubeconfig: string, ...args: string[]) => {
    const r = await canI(kubeconfig, ...args);
    assert.deepEqual([r.code, r.out], [1, 'no - No policy matched.'], `can-i ${args.join(' ')}: ${r.err}`);
  };

  it('kubectl auth can-i: resources in a namespace, yes (exit 0) and no (exit 1, with the reason)', async () => {
    await yes(alice, 'create', 'configmaps', '-n', 'team');
    await yes(alice, 'delete', 'configmaps', '-n', 'team');
    await no(alice, 'create', 'configmaps', '-n', 'other');
    await no(alice, 'create', 'secrets', '-n', 'team');
    await no(carl, 'get', 'configmaps', '-n', 'team');
  });

  it('readonly: get, list and watch only; cluster-scoped resources; --all-namespaces', async () => {
    await yes(alice, 'list', 'namespaces');
    await yes(alice, 'watch', 'namespaces');
    await no(alice, 'delete', 'namespaces');
    await no(alice, 'list', 'configmaps', '--all-namespaces');
    await yes(bob, 'list', 'configmaps', '--all-namespaces');
    await no(bob, 'create', 'configmaps', '-n', 'team');
    await yes(s.kubeconfig, 'delete', 'secrets', '--all-namespaces');
  });

  it('names and subresources', async () => {
    await yes(alice, 'get', 'configmaps/settings', '-n', 'team');
    await yes(alice, 'create', 'serviceaccounts', '--subresource=token', '-n', 'team');
    await no(alice, 'create', 'serviceaccounts', '--subresource=token', '-n', 'other');
  });

  it('non-resource URLs: a trailing * matches the paths under it; readonly refuses post', async () => {
    await yes(alice, 'get', '/healthz/ping');
    await no(alice, 'post', '/healthz/ping');
    await no(alice, 'get', '/metrics');
    await yes(bob, 'get', '/metrics');
  });

  it('--as: the admin asks for another user (impersonation, then a SelfSubjectAccessReview)', async () => {
    await yes(s.kubeconfig, 'create', 'configmaps', '-n', 'team', '--as=alice');
    await no(s.kubeconfig, 'create', 'configmaps', '-n', 'team', '--as=carl');
    await yes(s.kubeconfig, 'get', 'configmaps', '-n', 'team', '--as=bob');
    await no(s.kubeconfig, 'get', 'configmaps', '-n', 'team', '--as=nobody', '--as-group=readers');
  });

  it('kubectl auth can-i --list: the rules ABAC gives in the namespace', async () => {
    const r = await kubectl(['auth', 'can-i', '--list', '-n', 'team'], {
      kubeconfig: alice,
      timeoutMs: 60_000,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^Resources\s+Non-Resource URLs\s+Resource Names\s+Verbs$/m);
    assert.match(r.stdout, /^configmaps\s+\[\]\s+\[\]\s+\[\*\]$/m);
    assert.match(r.stdout, /^serviceaccounts\s+\[\]\s+\[\]\s+\[\*\]$/m);
    assert.match(r.stdout, /^namespaces\s+\[\]\s+\[\]\s+\[get list watch\]$/m);
    assert.match(r.stdout, /^selfsubjectaccessreviews\.authorization\.k8s\.io\s+\[\]\s+\[\]\s+\[\*\]$/m);
    // kubectl prints a non-resource rule once per verb
    for (const verb of ['get', 'list', 'watch'])
      assert.match(r.stdout, new RegExp(`^\\s+\\[/healthz/\\*\\]\\s+\\[\\]\\s+\\[${verb}\\]$`, 'm'));
    assert.doesNotMatch(r.stdout, /secrets/);
    assert.doesNotMatch(r.stderr, /incomplete/);
    // elsewhere alice has only what every namespace gives
    const other = await kubectl(['auth', 'can-i', '--list', '-n', 'other'], {
      kubeconfig: alice,
      timeoutMs: 60_000,
    });
    assert.doesNotMatch(other.stdout, /configmaps/);
    assert.match(other.stdout, /^namespaces\s/m);
  });

  it('a request ABAC does not allow is forbidden with its reason', async () => {
    const r = await kubectl(['get', 'secrets', '-n', 'team'], { kubeconfig: alice, timeoutMs: 60_000 });
    assert.equal(r.code, 1);
    assert.match(
      r.stderr,
      /secrets is forbidden: User "alice" cannot list resource "secrets" in API group "" in the namespace "team": No policy matched\./,
    );
    const ok = await kubectl(['create', 'configmap', 'c1', '-n', 'team', '--dry-run=server'], {
      kubeconfig: alice,
      timeoutMs: 60_000,
    });
    assert.match(ok.stderr + ok.stdout, /c1|namespaces "team" not found/);
  });

  describe('SubjectAccessReview', () => {
    const sar = (spec: Record<string, unknown>, token?: string | null) =>
      s.request('POST', `${AUTHZ}/subjectaccessreviews`, {
        body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec },
        token,
      });

    it("answers for the spec's user and groups, as given: allowed, or not with ABAC's reason (201)", async () => {
      const yes = await sar({
        user: 'alice',
        uid: 'uid-a',
        extra: { scopes: ['x'] },
        resourceAttributes: { namespace: 'team', verb: 'update', resource: 'configmaps', name: 'c' },
      });
      assert.equal(yes.status, 201, yes.text);
      assert.equal(yes.json.kind, 'SubjectAccessReview');
      assert.deepEqual(yes.json.spec.extra, { scopes: ['x'] });
      assert.equal(yes.json.spec.uid, 'uid-a');
      assert.deepEqual(yes.json.status, { allowed: true });
      const notAllowed = await sar({
        user: 'carl',
        resourceAttributes: { verb: 'list', resource: 'configmaps' },
      });
      assert.deepEqual(notAllowed.json.status, { allowed: false, reason: 'No policy matched.' });
      // groups only; no system:authenticated is added to what the spec says
      const readers = await sar({
        groups: ['readers'],
        nonResourceAttributes: { path: '/metrics', verb: 'get' },
      });
      assert.deepEqual(readers.json.status, { allowed: false, reason: 'No policy matched.' });
      const bobs = await sar({ user: 'bob', nonResourceAttributes: { path: '/metrics', verb: 'get' } });
      assert.deepEqual(bobs.json.status, { allowed: true });
      const authenticated = await sar({
        groups: ['system:authenticated'],
        resourceAttributes: {
          verb: 'create',
          group: 'authorization.k8s.io',
          resource: 'selfsubjectaccessreviews',
        },
      });
      assert.deepEqual(authenticated.json.status, { allowed: true });
    });

    it("kube's 422s: exactly one kind of attributes, a user or group, selectors rawSelector xor requirements", async () => {
      const cases: [Record<string, unknown>, string][] = [
        [
          { resourceAttributes: { verb: 'get' } },
          'SubjectAccessReview.authorization.k8s.io "" is invalid: spec.user: Invalid value: "": at least one of user or group must be specified',
        ],
        [
          { user: 'a' },
          'SubjectAccessReview.authorization.k8s.io "" is invalid: spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified',
        ],
        [
          { user: 'a', resourceAttributes: {}, nonResourceAttributes: { path: '/x', verb: 'get' } },
          'SubjectAccessReview.authorization.k8s.io "" is invalid: spec.nonResourceAttributes: Invalid value: authorization.NonResourceAttributes{Path:"/x", Verb:"get"}: cannot be specified in combination with resourceAttributes',
        ],
        [
          {
            user: 'a',
            resourceAttributes: {
              verb: 'list',
              fieldSelector: {
                rawSelector: 'a=b',
                requirements: [{ key: 'a', operator: 'In', values: ['b'] }],
              },
              labelSelector: {},
            },
          },
          'SubjectAccessReview.authorization.k8s.io "" is invalid: [spec.resourceAttributes.fieldSelector.rawSelector: Invalid value: "a=b": may not specified at the same time as requirements, spec.resourceAttributes.labelSelector.requirements: Required value: when spec.resourceAttributes.labelSelector is specified, requirements or rawSelector is required]',
        ],
      ];
      for (const [spec, message] of cases) {
        const r = await sar(spec);
        assert.equal(r.status, 422, r.text);
        assert.equal(r.json.reason, 'Invalid');
        assert.equal(r.json.message, message);
        assert.equal(r.json.details.kind, 'SubjectAccessReview');
        assert.equal(r.json.details.group, 'authorization.k8s.io');
      }
    });

    it('creating one is itself authorized: alice may not ask about others', async () => {
      const r = await sar({ user: 'bob', resourceAttributes: { verb: 'get' } }, 'alice-token');
      assert.equal(r.status, 403);
      assert.equal(
        r.json.message,
        'subjectaccessreviews.authorization.k8s.io is forbidden: User "alice" cannot create resource "subjectaccessreviews" in API group "authorization.k8s.io" at the cluster scope: No policy matched.',
      );
    });

    it('create only, never stored', async () => {
      const r = await s.request('GET', `${AUTHZ}/subjectaccessreviews`);
      assert.equal(r.status, 405);
    });
  });

  describe('LocalSubjectAccessReview', () => {
    const lsar = (ns: string, spec: Record<string, unknown>) =>
      s.request('POST', `${AUTHZ}/namespaces/${ns}/localsubjectaccessreviews`, {
        body: { apiVersion: 'authorization.k8s.io/v1', kind: 'LocalSubjectAccessReview', spec },
      });

    it("answers within the URL's namespace", async () => {
      const r = await lsar('team', {
        user: 'alice',
        resourceAttributes: { namespace: 'team', verb: 'get', resource: 'configmaps' },
      });
      assert.equal(r.status, 201, r.text);
      assert.equal(r.json.metadata.namespace, 'team');
      assert.deepEqual(r.json.status, { allowed: true });
    });

    it("spec.resourceAttributes.namespace must be the URL's (400); non-resource attributes are refused (422)", async () => {
      const other = await lsar('team', {
        user: 'alice',
        resourceAttributes: { namespace: 'other', verb: 'get', resource: 'configmaps' },
      });
      assert.equal(other.status, 400, other.text);
      assert.equal(other.json.reason, 'BadRequest');
      assert.equal(other.json.message, 'spec.resourceAttributes.namespace must match namespace: team');
      const none = await lsar('team', {
        user: 'alice',
        resourceAttributes: { verb: 'get', resource: 'configmaps' },
      });
      assert.equal(none.status, 400);
      const nonResource = await lsar('team', {
        user: 'alice',
        nonResourceAttributes: { path: '/x', verb: 'get' },
      });
      assert.equal(nonResource.status, 422);
      assert.equal(
        nonResource.json.message,
        'LocalSubjectAccessReview.authorization.k8s.io "" is invalid: spec.nonResourceAttributes: Invalid value: authorization.NonResourceAttributes{Path:"/x", Verb:"get"}: disallowed on this kind of request',
      );
    });
  });

  describe('SelfSubjectAccessReview and SelfSubjectRulesReview', () => {
    const post = (resource: string, kind: string, spec: Record<string, unknown>, token: string | null) =>
      s.request('POST', `${AUTHZ}/${resource}`, {
        body: { apiVersion: 'authorization.k8s.io/v1', kind, spec },
        token,
      });

    it("SelfSubjectAccessReview: the caller's own answer; no user needed, one kind of attributes", async () => {
      const r = await post(
        'selfsubjectaccessreviews',
        'SelfSubjectAccessReview',
        {
          resourceAttributes: { namespace: 'team', verb: 'create', resource: 'configmaps' },
        },
        'alice-token',
      );
      assert.equal(r.status, 201, r.text);
      assert.deepEqual(r.json.status, { allowed: true });
      const no = await post(
        'selfsubjectaccessreviews',
        'SelfSubjectAccessReview',
        {
          nonResourceAttributes: { path: '/metrics', verb: 'get' },
        },
        'alice-token',
      );
      assert.deepEqual(no.json.status, { allowed: false, reason: 'No policy matched.' });
      const bad = await post('selfsubjectaccessreviews', 'SelfSubjectAccessReview', {}, 'alice-token');
      assert.equal(bad.status, 422);
      assert.equal(
        bad.json.message,
        'SelfSubjectAccessReview.authorization.k8s.io "" is invalid: spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified',
      );
    });

    it('anonymous requests are refused creating one (ABAC gives system:unauthenticated nothing)', async () => {
      const r = await post(
        'selfsubjectaccessreviews',
        'SelfSubjectAccessReview',
        {
          nonResourceAttributes: { path: '/version', verb: 'get' },
        },
        null,
      );
      assert.equal(r.status, 403);
    });

    it('SelfSubjectRulesReview: rules in the namespace, a new review without the spec; no namespace is 400', async () => {
      const r = await post(
        'selfsubjectrulesreviews',
        'SelfSubjectRulesReview',
        { namespace: 'team' },
        'bob-token',
      );
      assert.equal(r.status, 201, r.text);
      assert.deepEqual(r.json.spec, {});
      assert.deepEqual(r.json.status, {
        resourceRules: [
          { verbs: ['*'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews'] },
          { verbs: ['*'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectrulesreviews'] },
          { verbs: ['get', 'list', 'watch'], apiGroups: ['*'], resources: ['*'] },
        ],
        // the /api* policy names no namespace: kube's ABAC does not list it in one
        nonResourceRules: [{ verbs: ['get', 'list', 'watch'], nonResourceURLs: ['*'] }],
        incomplete: false,
      });
      const none = await post('selfsubjectrulesreviews', 'SelfSubjectRulesReview', {}, 'bob-token');
      assert.equal(none.status, 400);
      assert.equal(none.json.message, 'no namespace on request');
    });
  });

  it('discovery lists the four reviews, create only', async () => {
    const r = await s.request('GET', AUTHZ);
    const resources = r.json.resources.map((x: { name: string; namespaced: boolean; verbs: string[] }) => [
      x.name,
      x.namespaced,
      x.verbs,
    ]);
    assert.deepEqual(resources.sort(), [
      ['localsubjectaccessreviews', true, ['create']],
      ['selfsubjectaccessreviews', false, ['create']],
      ['selfsubjectrulesreviews', false, ['create']],
      ['subjectaccessreviews', false, ['create']],
    ]);
  });
});

describe('ABAC policy file errors', () => {
  it('a malformed line stops the server at start, naming the file and the line', async () => {
    const file = await tempFile(
      'bad.jsonl',
      `# ok\n${policy({ user: 'a', nonResourcePath: '*' })}\n{"user": }\n`,
    );
    const r = await serverExit(['--authorization-mode=ABAC', `--authorization-policy-file=${file}`]);
    assert.notEqual(r.code, 0);
    assert.match(
      r.output,
      new RegExp(`error reading policy file ${file.replace(/[.]/g, '\\.')}, line 3: \\{"user": \\}: `),
    );
  });

  it('a file that cannot be read names the flag', async () => {
    const r = await serverExit([
      '--authorization-mode=ABAC',
      '--authorization-policy-file=/nonexistent/policy',
    ]);
    assert.notEqual(r.code, 0);
    assert.match(r.output, /--authorization-policy-file: ENOENT/);
  });
});

describe('access reviews under AlwaysAllow and AlwaysDeny', () => {
  const tokens = () => tempFile('tokens.csv', 'carl-token,carl,uid-carl\n');

  describe('AlwaysAllow', () => {
    const s = useServer(async () => ({
      args: ['--authorization-mode=AlwaysAllow', `--token-auth-file=${await tokens()}`],
    }));

    it('kubectl auth can-i says yes to anything; --list shows everything', async () => {
      const carl = await kubeconfigFor(s.kubeconfig, { token: 'carl-token' });
      const yes = await kubectl(['auth', 'can-i', 'delete', 'nodes'], {
        kubeconfig: carl,
        timeoutMs: 60_000,
      });
      assert.deepEqual([yes.code, yes.stdout.trim()], [0, 'yes']);
      const list = await kubectl(['auth', 'can-i', '--list'], { kubeconfig: carl, timeoutMs: 60_000 });
      assert.equal(list.code, 0, list.stderr);
      assert.match(list.stdout, /^\*\.\*\s+\[\]\s+\[\]\s+\[\*\]$/m);
      assert.match(list.stdout, /^\s+\[\*\]\s+\[\]\s+\[\*\]$/m);
    });
  });

  describe('AlwaysDeny', () => {
    const s = useServer(async () => ({
      args: ['--authorization-mode=AlwaysDeny', `--token-auth-file=${await tokens()}`],
    }));

    it('nobody but system:masters may even ask; a SubjectAccessReview reports no opinion, not a deny', async () => {
      const carl = await kubeconfigFor(s.kubeconfig, { token: 'carl-token' });
      const r = await kubectl(['auth', 'can-i', 'get', 'pods'], { kubeconfig: carl, timeoutMs: 60_000 });
      assert.equal(r.code, 1);
      assert.match(
        r.stderr,
        /selfsubjectaccessreviews\.authorization\.k8s\.io is forbidden: User "carl" cannot create/,
      );
      const sar = await s.request('POST', `${AUTHZ}/subjectaccessreviews`, {
        body: {
          apiVersion: 'authorization.k8s.io/v1',
          kind: 'SubjectAccessReview',
          spec: { user: 'carl', resourceAttributes: { verb: 'get', resource: 'pods' } },
        },
      });
      assert.deepEqual(sar.json.status, { allowed: false, reason: 'Everything is forbidden.' });
    });
  });
});
