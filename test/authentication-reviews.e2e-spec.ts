/**
 * authentication.k8s.io's reviews against the real server, with the real kubectl 1.32: `kubectl auth whoami`
 * (SelfSubjectReview) shows the admin, a token-file user and an impersonated identity with uid, groups and
 * extra; TokenReview answers for good and bad tokens; neither kind is stored (create only, 201).
 */
import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { kubectl } from './support/kubectl.js';
import { kubeconfigFor } from './support/kubeconfig.js';
import { useServer } from './support/use-server.js';

const REVIEWS = '/apis/authentication.k8s.io/v1';

describe('SelfSubjectReview and TokenReview', () => {
  const s = useServer(async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'pgkube-tokens-'));
    const file = path.join(dir, 'tokens.csv');
    await writeFile(file, 'carol-token,carol,uid-carol,"dev,qa"\n', { mode: 0o600 });
    return { args: [`--token-auth-file=${file}`] };
  });
  let carol: string;
  before(async () => {
    carol = await kubeconfigFor(s.kubeconfig, { token: 'carol-token' });
  });
  const run = (args: string[], kubeconfig = s.kubeconfig) => kubectl(args, { kubeconfig, timeoutMs: 60_000 });
  const ok = async (args: string[], kubeconfig?: string) => {
    const r = await run(args, kubeconfig);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')} failed:\n${r.stderr}\n${r.stdout}`);
    return r.stdout;
  };
  const whoami = async (kubeconfig?: string, args: string[] = []) =>
    JSON.parse(await ok(['auth', 'whoami', '-o', 'json', ...args], kubeconfig));

  it('kubectl auth whoami -o json: the admin, with its uid and groups', async () => {
    const review = await whoami();
    assert.equal(review.apiVersion, 'authentication.k8s.io/v1');
    assert.equal(review.kind, 'SelfSubjectReview');
    assert.ok(review.metadata.creationTimestamp);
    const info = review.status.userInfo;
    assert.equal(info.username, 'pgkube-admin');
    assert.match(info.uid, /^[0-9a-f-]{36}$/);
    assert.deepEqual(info.groups, ['system:masters', 'system:authenticated']);
    assert.equal(info.extra, undefined);
  });

  it('kubectl auth whoami: a token-file user with uid and groups (table and JSON)', async () => {
    assert.deepEqual((await whoami(carol)).status.userInfo, {
      username: 'carol',
      uid: 'uid-carol',
      groups: ['dev', 'qa', 'system:authenticated'],
    });
    const table = await ok(['auth', 'whoami'], carol);
    assert.match(table, /^ATTRIBUTE\s+VALUE$/m);
    assert.match(table, /^Username\s+carol$/m);
    assert.match(table, /^UID\s+uid-carol$/m);
    assert.match(table, /^Groups\s+\[dev qa system:authenticated\]$/m);
  });

  it('kubectl auth whoami --as --as-group: the impersonated identity, as kube reports it', async () => {
    const info = (await whoami(undefined, ['--as=x', '--as-group=y'])).status.userInfo;
    assert.deepEqual(info, { username: 'x', groups: ['y', 'system:authenticated'] });
  });

  it('impersonation with uid and extra (kubeconfig as-uid, as-user-extra) reaches SelfSubjectReview', async () => {
    const admin = await kubeconfigFor(s.kubeconfig, {
      token: s.token,
      as: 'dora',
      'as-groups': ['ops'],
      'as-uid': 'uid-dora',
      'as-user-extra': { 'example.com/team': ['blue', 'green'], scopes: ['read'] },
    });
    const info = (await whoami(admin)).status.userInfo;
    assert.deepEqual(info, {
      username: 'dora',
      uid: 'uid-dora',
      groups: ['ops', 'system:authenticated'],
      extra: { 'example.com/team': ['blue', 'green'], scopes: ['read'] },
    });
    const table = await ok(['auth', 'whoami'], admin);
    assert.match(table, /^Extra: example\.com\/team\s+\[blue green\]$/m);
    assert.match(table, /^UID\s+uid-dora$/m);
  });

  it('SelfSubjectReview: 201, nothing from the body kept; anonymous may not ask (403), nor read (405)', async () => {
    const r = await s.request('POST', `${REVIEWS}/selfsubjectreviews`, {
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview', metadata: { name: 'n' } },
    });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json.metadata.name, undefined);
    assert.equal(r.json.status.userInfo.username, 'pgkube-admin');
    const anonymous = await s.request('POST', `${REVIEWS}/selfsubjectreviews`, {
      token: null,
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
    });
    assert.equal(anonymous.status, 403, anonymous.text);
    const list = await s.request('GET', `${REVIEWS}/selfsubjectreviews`);
    assert.equal(list.status, 405, list.text);
    assert.equal(list.json.reason, 'MethodNotAllowed');
  });

  it('TokenReview of a good token: authenticated, the user with uid, groups; spec echoed', async () => {
    const r = await s.request('POST', `${REVIEWS}/tokenreviews`, {
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token: 'carol-token' } },
    });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json.kind, 'TokenReview');
    assert.deepEqual(r.json.spec, { token: 'carol-token' });
    // without spec.audiences the API's own (--api-audiences, by default the issuer) are reviewed and echoed
    assert.deepEqual(r.json.status, {
      authenticated: true,
      user: { username: 'carol', uid: 'uid-carol', groups: ['dev', 'qa', 'system:authenticated'] },
      audiences: ['https://kubernetes.default.svc.cluster.local'],
    });
  });

  it("TokenReview of a bad token: not authenticated, kube's error, an empty user; still 201", async () => {
    const r = await s.request('POST', `${REVIEWS}/tokenreviews`, {
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token: 'nope' } },
    });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.json.status, { user: {}, error: 'invalid bearer token' });
  });

  it('TokenReview with audiences: a token-file token is good for no foreign audience', async () => {
    const r = await s.request('POST', `${REVIEWS}/tokenreviews`, {
      body: {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'TokenReview',
        spec: { token: 'carol-token', audiences: ['https://elsewhere'] },
      },
    });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json.status.authenticated, undefined);
    assert.equal(r.json.status.error, 'invalid bearer token');
    assert.deepEqual(r.json.spec.audiences, ['https://elsewhere']);
  });

  it("TokenReview: no token is 400 with kube's message; kubectl create, also with --dry-run=server", async () => {
    const empty = await s.request('POST', `${REVIEWS}/tokenreviews`, {
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: {} },
    });
    assert.equal(empty.status, 400, empty.text);
    assert.equal(empty.json.message, 'token is required for TokenReview in authentication');
    const manifest = JSON.stringify({
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenReview',
      spec: { token: 'carol-token' },
    });
    // kubectl checks a kind without a PATCH operation against OpenAPI v2, which it reads as Protobuf only
    for (const extra of [[], ['--dry-run=server']]) {
      const r = await kubectl(['create', '--validate=false', '-f', '-', '-o', 'json', ...extra], {
        kubeconfig: s.kubeconfig,
        input: manifest,
        timeoutMs: 60_000,
      });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(JSON.parse(r.stdout).status.user.username, 'carol');
    }
  });

  it('discovery lists both kinds with the create verb only', async () => {
    const r = await s.request('GET', REVIEWS);
    assert.equal(r.status, 200, r.text);
    const byName = new Map(r.json.resources.map((x: { name: string }) => [x.name, x]));
    assert.deepEqual(byName.get('tokenreviews'), {
      name: 'tokenreviews',
      singularName: 'tokenreview',
      namespaced: false,
      kind: 'TokenReview',
      verbs: ['create'],
    });
    assert.deepEqual(byName.get('selfsubjectreviews'), {
      name: 'selfsubjectreviews',
      singularName: 'selfsubjectreview',
      namespaced: false,
      kind: 'SelfSubjectReview',
      verbs: ['create'],
    });
    const out = await ok(['api-resources', '--api-group=authentication.k8s.io', '-o', 'wide']);
    assert.match(out, /^tokenreviews\s+authentication\.k8s\.io\/v1\s+false\s+TokenReview\s+create/m);
  });
});
