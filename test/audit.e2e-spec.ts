/**
 * Audit against the real server and kubectl: a policy file, the JSON lines log (0600, rotated by
 * --audit-log-maxsize) and the database backend (view k8s.audit_events) at once. Both hold the same events (same
 * auditIDs and stages); kubectl's actions show up with their user (the admin, a client certificate's user, an
 * impersonated user), verb, objectRef, code and authorization decision; the levels' objects (RequestResponse
 * with, Metadata without; managedFields omitted); a watch's ResponseStarted; a refused credential's event; the
 * Audit-Id response header.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import postgres from 'postgres';
import { eventually } from './support/eventually.js';
import { kubectl, kubectlOf } from './support/kubectl.js';
import { runPgkube } from './support/server.js';
import { useServer } from './support/use-server.js';

const dir = mkdtempSync(path.join(tmpdir(), 'pgkube-audit-'));
const policyFile = path.join(dir, 'policy.yaml');
const logFile = path.join(dir, 'logs', 'audit.log');
writeFileSync(
  policyFile,
  `apiVersion: audit.k8s.io/v1
kind: Policy
omitManagedFields: true
rules:
  # discovery and OpenAPI: not audited
  - level: None
    nonResourceURLs: ["/api", "/api/*", "/apis", "/apis/*", "/openapi/*"]
  - level: RequestResponse
    namespaces: ["audited"]
    resources:
      - group: ""
        resources: ["configmaps"]
  - level: Metadata
`,
);

interface Event {
  level: string;
  auditID: string;
  stage: string;
  requestURI: string;
  verb: string;
  user: { username?: string; groups?: string[] };
  impersonatedUser?: { username?: string };
  sourceIPs?: string[];
  userAgent?: string;
  objectRef?: Record<string, string>;
  responseStatus?: { code?: number; status?: string; reason?: string; message?: string };
  requestObject?: any;
  responseObject?: any;
  requestReceivedTimestamp: string;
  stageTimestamp: string;
  annotations?: Record<string, string>;
}

async function fileEvents(): Promise<Event[]> {
  const files = (await readdir(path.dirname(logFile))).sort();
  const lines: Event[] = [];
  // rotated files first (their names sort by time), the live one last
  for (const f of [...files.filter((f) => f !== 'audit.log'), 'audit.log']) {
    const text = await readFile(path.join(path.dirname(logFile), f), 'utf8');
    for (const line of text.split('\n')) if (line) lines.push(JSON.parse(line) as Event);
  }
  return lines;
}

describe('audit', () => {
  const s = useServer({
    args: [
      `--audit-policy-file=${policyFile}`,
      `--audit-log-path=${logFile}`,
      '--audit-log-maxsize=1',
      '--audit-database',
    ],
  });
  const k = kubectlOf(s);
  let sql: postgres.Sql;
  let aliceConfig: string;

  before(async () => {
    sql = postgres(s.db.url, { max: 1, onnotice: () => undefined });
    aliceConfig = path.join(dir, 'alice.kubeconfig');
    const made = await runPgkube([
      'kubeconfig',
      `--data-dir=${s.dataDir}`,
      '--user=alice',
      '--group=dev',
      `--out=${aliceConfig}`,
    ]);
    assert.equal(made.code, 0, made.stderr);
    await k.ok(['create', 'namespace', 'audited']);
  });
  after(() => sql?.end());

  /** the events of the database once it holds every event of the file (batches are written off the request) */
  async function bothBackends(): Promise<{ file: Event[]; rows: Event[] }> {
    let file: Event[] = [];
    let rows: Event[] = [];
    await eventually(async () => {
      file = await fileEvents();
      rows = (await sql`SELECT event FROM k8s.audit_events ORDER BY at`).map((r) => r.event as Event);
      return rows.length === file.length;
    }, 'the table holds what the file holds');
    return { file, rows };
  }

  const find = (events: Event[], f: (e: Event) => boolean, stage = 'ResponseComplete') => {
    const e = events.find((e) => e.stage === stage && f(e));
    assert.ok(e, `no ${stage} event found`);
    return e;
  };

  it('kubectl create, get, delete and get --raw /healthz: the same events in the file and the table', async () => {
    // text that the table's framing (one event a line) and encoding must carry as the file does
    const awkward = 'grüße "quoted" back\\slash\ttab\nsecond line ✓';
    await k.ok([
      'create',
      'configmap',
      'cm1',
      '-n',
      'audited',
      '--from-literal=a=b',
      `--from-literal=n=${awkward}`,
    ]);
    await k.ok(['get', 'configmap', 'cm1', '-n', 'audited', '-o', 'json']);
    await k.ok(['delete', 'configmap', 'cm1', '-n', 'audited']);
    await k.ok(['get', '--raw', '/healthz']);
    const { file, rows } = await bothBackends();
    const key = (e: Event) => `${e.auditID} ${e.stage}`;
    assert.deepEqual(new Set(rows.map(key)), new Set(file.map(key)));
    // the whole event is the same, not just its keys
    const byKey = new Map(rows.map((e) => [key(e), e]));
    for (const e of file) assert.deepEqual(byKey.get(key(e)), e);

    const create = find(file, (e) => e.verb === 'create' && e.objectRef?.name === 'cm1');
    assert.equal(create.level, 'RequestResponse');
    assert.equal(create.user.username, 'pgkube-admin');
    assert.deepEqual(create.objectRef, {
      resource: 'configmaps',
      namespace: 'audited',
      name: 'cm1',
      apiVersion: 'v1',
    });
    assert.equal(create.responseStatus?.code, 201);
    assert.equal(create.annotations?.['authorization.k8s.io/decision'], 'allow');
    assert.equal(typeof create.annotations?.['authorization.k8s.io/reason'], 'string');
    assert.match(create.userAgent ?? '', /^kubectl\//);
    assert.deepEqual(create.sourceIPs, ['127.0.0.1']);
    assert.match(create.stageTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    // RequestResponse: both objects, managedFields omitted (the server sets them on a create)
    assert.equal(create.requestObject.kind, 'ConfigMap');
    assert.deepEqual(create.requestObject.data, { a: 'b', n: awkward });
    // as decoded (kubectl sends Protobuf), before the store filled it in
    assert.equal(create.requestObject.metadata.uid, undefined);
    assert.equal(create.responseObject.metadata.name, 'cm1');
    assert.ok(create.responseObject.metadata.uid);
    assert.equal(create.responseObject.metadata.managedFields, undefined);
    // every request has both stages, in order
    const received = find(file, (e) => e.auditID === create.auditID, 'RequestReceived');
    assert.equal(received.responseStatus, undefined);
    assert.equal(received.annotations, undefined);
    assert.ok(received.stageTimestamp <= create.stageTimestamp);

    const get = find(file, (e) => e.verb === 'get' && e.objectRef?.name === 'cm1');
    assert.equal(get.responseStatus?.code, 200);
    assert.equal(get.responseObject.data.a, 'b');
    const del = find(file, (e) => e.verb === 'delete' && e.objectRef?.name === 'cm1');
    assert.equal(del.responseStatus?.code, 200);

    const healthz = find(file, (e) => e.requestURI === '/healthz');
    assert.equal(healthz.level, 'Metadata');
    assert.equal(healthz.verb, 'get');
    assert.equal(healthz.objectRef, undefined);
    assert.equal(healthz.responseStatus?.code, 200);
    assert.equal(healthz.requestObject, undefined);
    assert.equal(healthz.responseObject, undefined);
    // discovery: level None
    assert.ok(!file.some((e) => e.requestURI.startsWith('/api?') || e.requestURI === '/api'));

    // the columns of the view say what the event says
    const [row] = await sql`SELECT verb, username, namespace, resource, name, code, decision, level
      FROM k8s.audit_events WHERE audit_id = ${del.auditID} AND stage = 'ResponseComplete'`;
    assert.deepEqual(
      { ...row },
      {
        verb: 'delete',
        username: 'pgkube-admin',
        namespace: 'audited',
        resource: 'configmaps',
        name: 'cm1',
        code: 200,
        decision: 'allow',
        level: 'RequestResponse',
      },
    );
  });

  it('Metadata level: no objects; a client certificate user forbidden: forbid and the Status', async () => {
    const r = await kubectl(['get', 'configmaps', '-n', 'default'], { kubeconfig: aliceConfig });
    assert.notEqual(r.code, 0);
    const { file } = await bothBackends();
    const denied = find(file, (e) => e.user.username === 'alice' && e.verb === 'list');
    assert.equal(denied.level, 'Metadata');
    assert.deepEqual(denied.user.groups, ['dev', 'system:authenticated']);
    assert.equal(denied.annotations?.['authorization.k8s.io/decision'], 'forbid');
    assert.equal(denied.responseStatus?.code, 403);
    assert.equal(denied.responseStatus?.status, 'Failure');
    assert.equal(denied.responseStatus?.reason, 'Forbidden');
    assert.match(denied.responseStatus?.message ?? '', /User "alice" cannot list resource "configmaps"/);
    assert.equal(denied.requestObject, undefined);
    assert.equal(denied.responseObject, undefined);
  });

  it('kubectl --as: the authenticated user and the impersonated one', async () => {
    await k.ok(['get', 'configmaps', '-n', 'default', '--as=bob', '--as-group=system:masters']);
    const { file } = await bothBackends();
    const e = find(file, (e) => e.impersonatedUser?.username === 'bob');
    assert.equal(e.user.username, 'pgkube-admin');
    assert.equal(e.verb, 'list');
    assert.equal(e.annotations?.['authorization.k8s.io/decision'], 'allow');
    // RequestReceived comes before impersonation, as kube sends it
    const received = find(file, (x) => x.auditID === e.auditID, 'RequestReceived');
    assert.equal(received.impersonatedUser, undefined);
  });

  it('a watch: RequestReceived, ResponseStarted, ResponseComplete; the Audit-Id header', async () => {
    const r = await s.request('GET', '/api/v1/namespaces/audited/configmaps?watch=1&timeoutSeconds=1');
    assert.equal(r.status, 200);
    const id = r.headers['audit-id'] as string;
    assert.match(id, /^[0-9a-f-]{36}$/);
    // ResponseComplete is written when the response has closed, which may be after the client read its end
    let file: Event[] = [];
    await eventually(async () => {
      file = (await bothBackends()).file;
      return file.some((e) => e.auditID === id && e.stage === 'ResponseComplete');
    }, "the watch's ResponseComplete");
    const stages = file.filter((e) => e.auditID === id).map((e) => e.stage);
    assert.deepEqual(stages, ['RequestReceived', 'ResponseStarted', 'ResponseComplete']);
    const started = find(file, (e) => e.auditID === id, 'ResponseStarted');
    assert.equal(started.verb, 'watch');
    assert.equal(started.responseStatus?.code, 200);

    // a client's Audit-ID is kept as sent
    const mine = await s.request('GET', '/healthz', { headers: { 'Audit-ID': 'my-own-id' } });
    assert.equal(mine.headers['audit-id'], 'my-own-id');
    await eventually(
      async () =>
        (await bothBackends()).rows.some((e) => e.auditID === 'my-own-id' && e.stage === 'ResponseComplete'),
      "the event under the client's Audit-ID",
    );
  });

  it('a refused credential: one ResponseStarted event with no user and the 401', async () => {
    const r = await s.request('GET', '/api/v1/namespaces', { token: 'not-a-token' });
    assert.equal(r.status, 401);
    const id = r.headers['audit-id'] as string;
    // the event is written when the response has closed, which may be after the client read it
    let events: Event[] = [];
    await eventually(async () => {
      events = (await bothBackends()).file.filter((e) => e.auditID === id);
      return events.length > 0;
    }, 'the refused request audited');
    assert.deepEqual(
      events.map((e) => e.stage),
      ['ResponseStarted'],
    );
    assert.deepEqual(events[0].user, {});
    assert.equal(events[0].responseStatus?.code, 401);
    // no credential anywhere in the log
    assert.ok(!(await readFile(logFile, 'utf8')).includes('not-a-token'));
    assert.ok(!(await readFile(logFile, 'utf8')).includes(s.token));
  });

  it('the log is 0600 and rotates past --audit-log-maxsize (1 MB): a timestamped backup, 0600', async () => {
    assert.equal((await stat(logFile)).mode & 0o777, 0o600);
    assert.equal((await stat(path.dirname(logFile))).mode & 0o777, 0o700);
    const big = 'x'.repeat(300_000);
    for (let i = 0; i < 3; i++) {
      const r = await s.request('POST', '/api/v1/namespaces/audited/configmaps', {
        body: { metadata: { name: `big-${i}` }, data: { big } },
      });
      assert.equal(r.status, 201, r.text);
    }
    const files = await readdir(path.dirname(logFile));
    const backups = files.filter((f) => /^audit-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}\.log$/.test(f));
    assert.ok(backups.length >= 1, files.join(' '));
    for (const f of backups)
      assert.equal((await stat(path.join(path.dirname(logFile), f))).mode & 0o777, 0o600);
    // nothing lost by the rotation: the table and the files still agree
    const { file } = await bothBackends();
    assert.equal(
      file.filter((e) => e.objectRef?.name?.startsWith('big-') && e.stage === 'ResponseComplete').length,
      3,
    );
  });
});
