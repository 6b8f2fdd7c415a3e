/**
 * pgkube as an aggregated (delegating) API server, with two real servers: host A (standalone, with a token
 * file and an authenticating proxy CA) and B started with --authentication-kubeconfig and
 * --authorization-kubeconfig pointing at A, as a user A allows to review tokens and access and to read its
 * extension-apiserver-authentication. At B: a token only A knows is A's user (SelfSubjectReview, kubectl auth
 * whoami); A's RBAC decides what that user may do; health paths need no one; A's front-proxy CA (read from A's
 * ConfigMap) vouches for X-Remote-* headers, another CA does not; namespaces are A's.
 */
import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { KeyPair } from '../src/pki/certificates.js';
import { clientCertificate, testCa, type TestCa } from './support/certificates.js';
import { testDatabase, type TestDatabase } from './support/database.js';
import { eventually } from './support/eventually.js';
import { kubectl } from './support/kubectl.js';
import { kubeconfigFor } from './support/kubeconfig.js';
import { grant, user } from './support/rbac.js';
import { serverExit, startServer, type TestServer } from './support/server.js';
import { h1Request, selfSubjectReview } from './support/tls-client.js';
import { useServer } from './support/use-server.js';
import { hostKubeconfig } from './support/aggregation.js';

const TOKENS = [
  'delegator-token,system:pgkube-b,uid-b',
  'alice-token,alice,uid-alice,"devs"',
  'bob-token,bob,uid-bob',
].join('\n');

async function tempFile(dir: string, name: string, text: string): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, text, { mode: 0o600 });
  return file;
}

const configMap = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } });

describe('delegated authentication and authorization (B delegates to A)', () => {
  let dir: string;
  let proxyCa: TestCa;
  let otherCa: TestCa;
  let proxy: KeyPair;
  let impostor: KeyPair;
  let dbB: TestDatabase;
  let b: TestServer;
  const a = useServer(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'pgkube-delegation-'));
    proxyCa = await testCa('front-proxy-ca');
    otherCa = await testCa('other-ca');
    return {
      args: [
        `--token-auth-file=${await tempFile(dir, 'tokens.csv', TOKENS)}`,
        `--requestheader-client-ca-file=${await tempFile(dir, 'front-proxy-ca.crt', proxyCa.cert)}`,
        '--requestheader-allowed-names=front-proxy',
      ],
    };
  });

  before(async () => {
    proxy = await clientCertificate(proxyCa, { cn: 'front-proxy' });
    impostor = await clientCertificate(otherCa, { cn: 'front-proxy' });
    // what kube's delegating servers are given on the host: reviews, the trust ConfigMap, namespaces
    await grant(
      a,
      'pgkube-delegator',
      [user('system:pgkube-b')],
      [
        { verbs: ['create'], apiGroups: ['authentication.k8s.io'], resources: ['tokenreviews'] },
        { verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['subjectaccessreviews'] },
        {
          verbs: ['get'],
          apiGroups: [''],
          resources: ['configmaps'],
          resourceNames: ['extension-apiserver-authentication'],
        },
        { verbs: ['get'], apiGroups: [''], resources: ['namespaces'] },
      ],
    );
    // alice may read and write ConfigMaps (at B too, since A decides); bob may do nothing
    await grant(
      a,
      'configmap-editor',
      [user('alice')],
      [{ verbs: ['get', 'list', 'create'], apiGroups: [''], resources: ['configmaps'] }],
    );
    const kubeconfig = await tempFile(dir, 'host.kubeconfig', hostKubeconfig(a, 'delegator-token'));
    dbB = await testDatabase();
    b = await startServer({
      databaseUrl: dbB.url,
      args: [`--authentication-kubeconfig=${kubeconfig}`, `--authorization-kubeconfig=${kubeconfig}`],
    });
  });

  after(async () => {
    await b?.stop();
    await dbB?.drop();
  });

  it('a bearer token only A knows is A’s user at B (SelfSubjectReview, kubectl auth whoami)', async () => {
    const who = await selfSubjectReview((r) => h1Request(b, { token: 'alice-token' }, r));
    assert.equal(who?.username, 'alice');
    assert.equal(who?.uid, 'uid-alice');
    assert.deepEqual(who?.groups, ['devs', 'system:authenticated']);
    const config = await kubeconfigFor(b.kubeconfig, { token: 'alice-token' });
    const whoami = await kubectl(['auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username}'], {
      kubeconfig: config,
    });
    assert.equal(whoami.code, 0, whoami.stderr);
    assert.equal(whoami.stdout, 'alice');
    // a token neither knows
    const unknown = await b.request('GET', '/api/v1/namespaces/default/configmaps', { token: 'nobody' });
    assert.equal(unknown.status, 401);
  });

  it('A’s RBAC decides at B: alice may list ConfigMaps, bob is 403', async () => {
    const list = (token: string) => b.request('GET', '/api/v1/namespaces/default/configmaps', { token });
    assert.equal((await list('alice-token')).status, 200);
    const bob = await list('bob-token');
    assert.equal(bob.status, 403, bob.text);
    assert.equal(
      bob.json.message,
      'configmaps is forbidden: User "bob" cannot list resource "configmaps" in API group "" in the namespace "default"',
    );
    const config = await kubeconfigFor(b.kubeconfig, { token: 'bob-token' });
    const can = await kubectl(['auth', 'can-i', 'list', 'configmaps', '-n', 'default'], {
      kubeconfig: config,
    });
    assert.equal(can.stdout.trim(), 'no');
    // B's own admin (system:masters) needs nobody's leave
    assert.equal((await b.request('GET', '/api/v1/namespaces/kube-system/secrets')).status, 200);
  });

  it('health paths answer anyone at B; other paths are A’s to decide', async () => {
    for (const p of ['/readyz', '/healthz', '/livez']) {
      const r = await b.request('GET', p, { token: null });
      assert.equal(r.status, 200, `${p}: ${r.text}`);
    }
    const metrics = await b.request('GET', '/metrics', { token: null });
    assert.equal(metrics.status, 403);
    assert.match(metrics.json.message, /User "system:anonymous" cannot get path "\/metrics"/);
  });

  it('a certificate of A’s front-proxy CA vouches for X-Remote-* headers at B; another CA’s does not', async () => {
    const headers = { 'X-Remote-User': 'carol', 'X-Remote-Group': 'auditors', 'X-Remote-Extra-Scope': 'x' };
    const who = await selfSubjectReview((r) =>
      h1Request(b, { cert: proxy.cert, key: proxy.key }, { ...r, headers }),
    );
    assert.deepEqual(who, {
      username: 'carol',
      groups: ['auditors', 'system:authenticated'],
      extra: { scope: ['x'] },
    });
    const refused = await h1Request(
      b,
      { cert: impostor.cert, key: impostor.key },
      { path: '/apis/authentication.k8s.io/v1/selfsubjectreviews', method: 'POST', headers, body: {} },
    );
    assert.equal(refused.status, 401);
    // without a certificate the headers mean nothing: the request is anonymous (whom A refuses this)
    const anonymous = await h1Request(b, {}, { path: '/metrics', headers });
    assert.equal(anonymous.status, 403);
    assert.match(anonymous.json.message, /^forbidden: User "system:anonymous" cannot get path "\/metrics"/);
  });

  it('a proxy CA added to A’s ConfigMap is trusted at B without a restart (B polls every 10 s)', async () => {
    const newCa = await testCa('rotated-front-proxy-ca');
    const rotated = await clientCertificate(newCa, { cn: 'front-proxy' });
    const path = '/api/v1/namespaces/kube-system/configmaps/extension-apiserver-authentication';
    const current = await a.request('GET', path);
    const data = current.json.data as Record<string, string>;
    // A keeps what others add to its ConfigMap (it publishes the union)
    const patched = await a.request('PATCH', path, {
      raw: JSON.stringify({
        data: { 'requestheader-client-ca-file': data['requestheader-client-ca-file'] + newCa.cert },
      }),
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    assert.equal(patched.status, 200, patched.text);
    const send = () =>
      h1Request(
        b,
        { cert: rotated.cert, key: rotated.key },
        {
          method: 'POST',
          path: '/apis/authentication.k8s.io/v1/selfsubjectreviews',
          headers: { 'X-Remote-User': 'dave' },
          body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
        },
      );
    assert.equal((await send()).status, 401, 'not before B has read the change');
    await eventually(async () => (await send()).status === 201, 'the rotated CA at B', 25_000);
    assert.equal((await send()).json.status.userInfo.username, 'dave');
    // the old CA is still in the bundle, and still works
    const who = await selfSubjectReview((r) =>
      h1Request(b, { cert: proxy.cert, key: proxy.key }, { ...r, headers: { 'X-Remote-User': 'carol' } }),
    );
    assert.equal(who?.username, 'carol');
  });

  it('namespaces are A’s: a create at B in a namespace only A has works, in one only B has is 404', async () => {
    assert.equal(
      (await a.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'only-at-a' } } })).status,
      201,
    );
    assert.equal(
      (await b.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'only-at-b' } } })).status,
      201,
    );
    const atA = await b.request('POST', '/api/v1/namespaces/only-at-a/configmaps', {
      token: 'alice-token',
      body: configMap('c1'),
    });
    assert.equal(atA.status, 201, atA.text);
    const atB = await b.request('POST', '/api/v1/namespaces/only-at-b/configmaps', { body: configMap('c1') });
    assert.equal(atB.status, 404, atB.text);
    assert.equal(atB.json.message, 'namespaces "only-at-b" not found');
  });

  it('a namespace A is deleting refuses creates at B with kube’s 403', async () => {
    await a.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'leaving' } } });
    // a finalizer keeps content in it, so A's namespace stays Terminating
    const held = await a.request('POST', '/api/v1/namespaces/leaving/configmaps', {
      body: { ...configMap('held'), metadata: { name: 'held', finalizers: ['example.com/hold'] } },
    });
    assert.equal(held.status, 201, held.text);
    assert.equal((await a.request('DELETE', '/api/v1/namespaces/leaving')).status, 200);
    const r = await b.request('POST', '/api/v1/namespaces/leaving/configmaps', { body: configMap('c') });
    assert.equal(r.status, 403, r.text);
    assert.equal(
      r.json.message,
      'configmaps "c" is forbidden: unable to create new content in namespace leaving because it is being terminated',
    );
    await a.request('PATCH', '/api/v1/namespaces/leaving/configmaps/held', {
      raw: '{"metadata":{"finalizers":null}}',
      headers: { 'content-type': 'application/merge-patch+json' },
    });
  });

  it('a host whose trust the kubeconfig’s user may not read stops B’s start, naming why (never the token)', async () => {
    const kubeconfig = await tempFile(dir, 'bob.kubeconfig', hostKubeconfig(a, 'bob-token'));
    const { code, output } = await serverExit([`--authentication-kubeconfig=${kubeconfig}`]);
    assert.equal(code, 1, output);
    assert.match(
      output,
      /pgkube: unable to load configmap based request-header-client-ca-file: configmaps "extension-apiserver-authentication" is forbidden: User "bob" cannot get resource "configmaps" in API group "" in the namespace "kube-system"/,
    );
    assert.doesNotMatch(output, /bob-token/);
  });
});
