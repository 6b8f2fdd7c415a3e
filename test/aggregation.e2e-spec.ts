/**
 * Aggregation with two real servers on one machine, as a cluster would host an aggregated API server: host A
 * (standalone) and B (`--builtin-apis=false`, a CRD of `widgets.example.com` from `--api-definitions`,
 * authentication and authorization delegated to A, self-registering its APIService in A, whose Service in A is
 * an ExternalName Service for `localhost`; B's serving certificate names `widgets-api.pgkube.svc`). Through A with
 * the real kubectl: discovery and explain see widgets, every verb reaches B's PostgreSQL, A's RBAC decides before
 * proxying and B asks A again; B's availability follows B stopping and coming back.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import postgres from 'postgres';
import { clientCertificate, testCa } from './support/certificates.js';
import type { TestDatabase } from './support/database.js';
import { eventually } from './support/eventually.js';
import { kubectl, kubectlBinary } from './support/kubectl.js';
import { kubeconfigFor } from './support/kubeconfig.js';
import { startServer, type TestServer } from './support/server.js';
import { h1Request } from './support/tls-client.js';
import { useServer } from './support/use-server.js';
import { APISERVICE, hostTokenFile, startWidgetsBackend, widget, WIDGETS } from './support/aggregation.js';

describe('aggregation: A hosts B, which serves widgets.example.com', () => {
  let dir: string;
  let dbB: TestDatabase;
  let b: TestServer;
  let bArgs: string[];
  let bDataDir: string;
  let alice: string;
  let bob: string;
  const a = useServer(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'pgkube-aggregation-'));
    return { args: [`--token-auth-file=${await hostTokenFile(dir)}`] };
  });

  const apiService = async () =>
    (await a.request('GET', `/apis/apiregistration.k8s.io/v1/apiservices/${APISERVICE}`)).json;
  const available = async () =>
    ((await apiService()).status?.conditions ?? []).find((c: { type: string }) => c.type === 'Available');

  before(async () => {
    ({ b, bArgs, dataDir: bDataDir, database: dbB } = await startWidgetsBackend(a, dir));
    alice = await kubeconfigFor(a.kubeconfig, { token: 'alice-token' });
    bob = await kubeconfigFor(a.kubeconfig, { token: 'bob-token' });
    await eventually(
      async () => (await available())?.status === 'True',
      'the APIService becomes Available',
      30_000,
    );
  });

  after(async () => {
    await b?.stop();
    await dbB?.drop();
  });

  it('B registered its APIService in A: its group and version, the Service, its CA, kube’s priorities', async () => {
    const registered = await apiService();
    assert.equal(registered.spec.group, 'widgets.example.com');
    assert.equal(registered.spec.version, 'v1alpha1');
    assert.deepEqual(registered.spec.service, {
      namespace: 'pgkube',
      name: 'widgets-api',
      port: Number(bArgs[0].split('=')[1]),
    });
    assert.equal(Buffer.from(registered.spec.caBundle, 'base64').toString(), b.ca);
    assert.equal(registered.spec.groupPriorityMinimum, 1000);
    assert.equal(registered.spec.versionPriority, 15);
    assert.deepEqual(
      { ...(await available()), lastTransitionTime: undefined },
      {
        type: 'Available',
        status: 'True',
        reason: 'Passed',
        message: 'all checks passed',
        lastTransitionTime: undefined,
      },
    );
    const table = await kubectl(['get', 'apiservice', APISERVICE], { kubeconfig: a.kubeconfig });
    assert.match(table.stdout, /v1alpha1\.widgets\.example\.com\s+pgkube\/widgets-api\s+True/);
  });

  it('kubectl through A: api-resources lists the group, explain reads B’s schema', async () => {
    const resources = await kubectl(['api-resources', '--api-group=widgets.example.com'], {
      kubeconfig: alice,
    });
    assert.equal(resources.code, 0, resources.stderr);
    assert.match(resources.stdout, /widgets\s+wd\s+widgets\.example\.com\/v1alpha1\s+true\s+Widget/);
    const explain = await kubectl(['explain', 'widgets.spec.size'], { kubeconfig: a.kubeconfig });
    assert.equal(explain.code, 0, explain.stderr);
    assert.match(explain.stdout, /How big the widget is\./);
  });

  it('create, get, list, apply and delete through A reach B’s PostgreSQL', async () => {
    const create = await kubectl(['create', '-f', '-'], {
      kubeconfig: alice,
      input: JSON.stringify(widget('w1', 2)),
    });
    assert.equal(create.code, 0, create.stderr);
    assert.match(create.stdout, /widget\.widgets\.example\.com\/w1 created/);
    // it is B's: B answers for it directly, A stores no such thing
    const inB = await b.request('GET', `${WIDGETS}/w1`);
    assert.equal(inB.status, 200, inB.text);
    assert.equal(inB.json.spec.size, 2);
    const sql = postgres(dbB.url, { max: 1, onnotice: () => undefined });
    try {
      const rows = await sql<{ n: string }[]>`select count(*)::text as n from objects where name = 'w1'`;
      assert.equal(rows[0].n, '1');
    } finally {
      await sql.end();
    }

    const get = await kubectl(['get', 'widgets', 'w1', '-n', 'default'], { kubeconfig: alice });
    assert.equal(get.code, 0, get.stderr);
    assert.match(get.stdout, /^NAME\s+SIZE\nw1\s+2\n$/);
    const apply = await kubectl(['apply', '--server-side', '--force-conflicts', '-f', '-'], {
      kubeconfig: alice,
      input: JSON.stringify(widget('w1', 5)),
    });
    assert.equal(apply.code, 0, apply.stderr);
    assert.equal((await b.request('GET', `${WIDGETS}/w1`)).json.spec.size, 5);
    const list = await kubectl(['get', 'wd', '-A', '-o', 'name'], { kubeconfig: alice });
    assert.equal(list.stdout.trim(), 'widget.widgets.example.com/w1');
    // B's own validation answers through A
    const invalid = await kubectl(['create', '-f', '-'], {
      kubeconfig: alice,
      input: JSON.stringify(widget('w0', 0)),
    });
    assert.notEqual(invalid.code, 0);
    assert.match(
      invalid.stderr,
      /spec\.size: Invalid value: 0: spec\.size in body should be greater than or equal to 1/,
    );
    // a body is streamed to B unread by A: B's own limit (3 MiB) judges it
    const big = { ...widget('big', 1), spec: { size: 1, color: 'x'.repeat(2 * 1024 * 1024) } };
    const bigCreate = await a.request('POST', WIDGETS, { token: 'alice-token', body: big });
    assert.equal(bigCreate.status, 201, bigCreate.text.slice(0, 200));
    assert.equal((await b.request('GET', `${WIDGETS}/big`)).json.spec.color.length, 2 * 1024 * 1024);
    const del = await kubectl(['delete', 'widget', 'w1', '-n', 'default'], { kubeconfig: alice });
    assert.equal(del.code, 0, del.stderr);
    assert.equal((await b.request('GET', `${WIDGETS}/w1`)).status, 404);
  });

  it('kubectl get -w through A streams B’s events as they happen', async () => {
    const child = spawn(
      await kubectlBinary(),
      ['--kubeconfig', alice, 'get', 'widgets', '-n', 'default', '-w', '-o', 'name'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, KUBECACHEDIR: await mkdtemp(path.join(tmpdir(), 'kubectl-cache-')) },
      },
    );
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    try {
      await new Promise((r) => setTimeout(r, 1000));
      assert.equal((await b.request('POST', WIDGETS, { body: widget('streamed', 3) })).status, 201);
      await eventually(() => out.includes('widget.widgets.example.com/streamed'), `watch output: ${out}`);
    } finally {
      child.kill();
    }
  });

  it('A’s RBAC refuses bob before proxying; alice is let in by B after B asks A (SubjectAccessReview)', async () => {
    // B's own count of widget lists: bob's refusal must not reach it (lists only: the earlier test's watch is
    // counted when it ends, which may be now)
    const widgetRequestsAtB = async () => {
      const metrics = (await b.request('GET', '/metrics')).text;
      return [
        ...metrics.matchAll(
          /^apiserver_request_total\{(?=[^}]*resource="widgets")(?=[^}]*verb="LIST")[^}]*\} (\d+)/gm,
        ),
      ].reduce((sum, m) => sum + Number(m[1]), 0);
    };
    const before = await widgetRequestsAtB();
    const refused = await kubectl(['get', 'widgets', '-n', 'default'], { kubeconfig: bob });
    assert.notEqual(refused.code, 0);
    assert.match(
      refused.stderr,
      /widgets\.widgets\.example\.com is forbidden: User "bob" cannot list resource "widgets" in API group "widgets\.example\.com" in the namespace "default"/,
    );
    assert.equal(await widgetRequestsAtB(), before);
    const direct = await a.request('GET', WIDGETS, { token: 'alice-token' });
    assert.equal(direct.status, 200, direct.text);
    // carol is allowed only through her group: B's SubjectAccessReview carries the groups A forwarded
    const carol = await a.request('GET', WIDGETS, { token: 'carol-token' });
    assert.equal(carol.status, 200, carol.text);
    const carolWrites = await a.request('POST', WIDGETS, {
      token: 'carol-token',
      body: widget('by-carol', 1),
    });
    assert.equal(carolWrites.status, 403, carolWrites.text);
  });

  it('B takes the identity A forwards under A’s front-proxy certificate, and refuses the same headers under another', async () => {
    const frontProxy = {
      cert: await readFile(path.join(a.dataDir, 'pki', 'front-proxy-client.crt'), 'utf8'),
      key: await readFile(path.join(a.dataDir, 'pki', 'front-proxy-client.key'), 'utf8'),
    };
    const headers = { 'X-Remote-User': 'alice', 'X-Remote-Group': 'widget-makers' };
    const ok = await h1Request(b, frontProxy, { path: WIDGETS, headers });
    assert.equal(ok.status, 200, ok.text);
    const impostor = await clientCertificate(await testCa('front-proxy-ca'), { cn: 'front-proxy-client' });
    const refused = await h1Request(b, impostor, { path: WIDGETS, headers });
    assert.equal(refused.status, 401, refused.text);
    // without any certificate the headers are nothing: anonymous, whom A's RBAC does not let list widgets
    const bare = await h1Request(b, {}, { path: WIDGETS, headers });
    assert.equal(bare.status, 403, bare.text);
    assert.match(bare.json.message, /User "system:anonymous" cannot list/);
  });

  it('B stopped: Available=False and 503 through A; B back: Available again', async () => {
    await b.stop();
    const down = await a.request('GET', WIDGETS, { token: 'alice-token' });
    assert.equal(down.status, 503, down.text);
    assert.equal(down.json.reason, 'ServiceUnavailable');
    await eventually(async () => (await available())?.status === 'False', 'Available=False', 20_000);
    const condition = await available();
    assert.equal(condition.reason, 'FailedDiscoveryCheck');
    assert.match(
      condition.message,
      /failing or missing response from https:\/\/localhost:\d+\/apis\/widgets\.example\.com\/v1alpha1/,
    );
    const refused = await kubectl(['get', 'widgets', '-n', 'default'], { kubeconfig: alice });
    assert.notEqual(refused.code, 0);
    assert.match(
      refused.stderr,
      /ServiceUnavailable|the server is currently unable to handle the request|service unavailable/,
    );

    b = await startServer({ databaseUrl: dbB.url, dataDir: bDataDir, args: bArgs });
    await eventually(async () => (await available())?.status === 'True', 'Available again', 20_000);
    const back = await a.request('GET', WIDGETS, { token: 'alice-token' });
    assert.equal(back.status, 200, back.text);
  });
});
