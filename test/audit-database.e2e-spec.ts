/**
 * The audit database backend against real PostgreSQL, without a server: what reaches the table and what the
 * view `k8s.audit_events` reads out of it, and the losses it counts (a full buffer, a failed INSERT), and
 * --audit-retention's pruning.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import postgres from 'postgres';
import {
  DatabaseBackend,
  databaseBackendDefaults,
  eventJson,
  type AuditEvent,
} from '../modules/audit/index.js';
import { migrate } from '../modules/storage/index.js';
import { testDatabase, type TestDatabase } from './support/database.js';
import { migrateBefore } from './support/migrations.js';

/** an event as the auditor hands it to its sinks */
function event(name: string, atMicros: number, extra: Partial<AuditEvent> = {}): AuditEvent {
  return {
    level: 'Metadata',
    auditID: `id-${name}`,
    stage: 'ResponseComplete',
    requestURI: `/api/v1/namespaces/ns/configmaps/${name}`,
    verb: 'delete',
    user: '{"username":"alice","groups":["dev"]}',
    impersonatedUser: '{"username":"bob"}',
    objectRef: { resource: 'configmaps', namespace: 'ns', name, apiVersion: 'v1' },
    code: 200,
    receivedMicros: atMicros - 1500,
    atMicros,
    annotations: '{"authorization.k8s.io/decision":"allow","authorization.k8s.io/reason":""}',
    ...extra,
  };
}

const nowMicros = () => Date.now() * 1000 + 123;

describe('audit database backend', () => {
  let db: TestDatabase;
  let sql: postgres.Sql;
  const losses: { plugin: string; events: number }[] = [];
  const backend = (o: Partial<typeof databaseBackendDefaults> & { retentionMs?: number } = {}) =>
    new DatabaseBackend(sql, {
      ...databaseBackendDefaults,
      retentionMs: 3_600_000,
      onError: (plugin, events) => losses.push({ plugin, events }),
      ...o,
    });

  before(async () => {
    db = await testDatabase();
    await migrate(db.url);
    sql = postgres(db.url, { max: 1, onnotice: () => undefined });
  });
  after(async () => {
    await sql?.end();
    await db?.drop();
  });

  it('writes each event as its columns; the view names them and gives back the event as the log writes it', async () => {
    await sql`TRUNCATE audit_events`;
    losses.length = 0;
    const b = backend();
    const now = nowMicros();
    // text the array literals must carry as it is
    const awkward = 'grüße "q" back\\slash\ttab\nline ✓ {a,b} NULL \\u0000 \'s';
    const events: AuditEvent[] = [
      event('plain', now),
      // every field the event can have
      event('odd', now + 1, {
        level: 'RequestResponse',
        requestURI: `/apis/apps/v1/namespaces/ns/deployments/odd/scale?fieldManager=${encodeURIComponent(awkward)}`,
        verb: 'update',
        user: JSON.stringify({ username: awkward, uid: 'u', groups: ['a', 'b'], extra: { k: [awkward] } }),
        sourceIPs: '["10.0.0.1","127.0.0.1"]',
        userAgent: awkward,
        objectRef: {
          resource: 'deployments',
          namespace: 'ns',
          name: 'odd',
          uid: 'u-1',
          apiGroup: 'apps',
          apiVersion: 'v1',
          resourceVersion: '42',
          subresource: 'scale',
        },
        code: 409,
        responseStatus: JSON.stringify({
          metadata: {},
          status: 'Failure',
          message: awkward,
          reason: 'Conflict',
          details: { name: 'odd', group: 'apps', kind: 'deployments' },
          code: 409,
        }),
        requestObject: JSON.stringify({
          kind: 'Scale',
          metadata: { name: 'odd', labels: null },
          spec: { x: awkward },
        }),
        responseObject: JSON.stringify({ kind: 'Status', details: null }),
        annotations: JSON.stringify({
          'authorization.k8s.io/decision': 'allow',
          'authorization.k8s.io/reason': awkward,
        }),
      }),
      // what a non-resource request's RequestReceived lacks stays out
      {
        level: 'Metadata',
        auditID: 'id-received',
        stage: 'RequestReceived',
        requestURI: '/healthz',
        verb: 'get',
        user: '{}',
        receivedMicros: now + 2,
        atMicros: now + 2,
      },
    ];
    for (const e of events) b.process(e);
    await b.close();
    const rows =
      await sql`SELECT verb, username, impersonated_user, resource, namespace, name, code, decision,
      stage, level, audit_id, request_uri, user_agent, api_version, event,
      (extract(epoch FROM at) * 1e6)::int8 AS at, (extract(epoch FROM received_at) * 1e6)::int8 AS received
      FROM k8s.audit_events ORDER BY at`;
    assert.equal(rows.length, 3);
    assert.deepEqual(
      { ...rows[0], event: undefined },
      {
        verb: 'delete',
        username: 'alice',
        impersonated_user: 'bob',
        resource: 'configmaps',
        namespace: 'ns',
        name: 'plain',
        code: 200,
        decision: 'allow',
        stage: 'ResponseComplete',
        level: 'Metadata',
        audit_id: 'id-plain',
        request_uri: '/api/v1/namespaces/ns/configmaps/plain',
        user_agent: null,
        api_version: 'v1',
        event: undefined,
        at: String(now),
        received: String(now - 1500),
      },
    );
    assert.equal(rows[1].user_agent, awkward);
    // the whole event, as the log file holds it, to the microsecond
    rows.forEach((row, i) => assert.deepEqual(row.event, JSON.parse(eventJson(events[i]))));
    assert.deepEqual(losses, []);
  });

  it("a request's RequestReceived shares its next event's row; the view gives each event back as it was", async () => {
    await sql`TRUNCATE audit_events`;
    losses.length = 0;
    const b = backend({ flushMs: 60_000 });
    const t = nowMicros();
    /** a request's events: RequestReceived names what the path names, the later ones what decoding added */
    const request = (id: string, at: number, pathRef: AuditEvent['objectRef'], uri = `/r/${id}`) => {
      const base = {
        level: 'Metadata' as const,
        auditID: id,
        requestURI: uri,
        verb: 'create',
        user: '{"username":"alice"}',
        sourceIPs: '["127.0.0.1"]',
        userAgent: 'kubectl',
        receivedMicros: at,
      };
      return {
        received: { ...base, stage: 'RequestReceived' as const, objectRef: pathRef, atMicros: at + 1 },
        later: (stage: AuditEvent['stage'], dt: number, ref = pathRef): AuditEvent => ({
          ...base,
          stage,
          objectRef: ref,
          impersonatedUser: '{"username":"bob"}',
          code: 201,
          annotations: '{"authorization.k8s.io/decision":"allow"}',
          atMicros: at + dt,
        }),
      };
    };
    const path = { resource: 'configmaps', namespace: 'ns', apiVersion: 'v1' };
    const created = { ...path, name: 'c', uid: 'u-1', resourceVersion: '7' };
    const create = request('create', t, path);
    const watch = request('watch', t + 10, { resource: 'pods' });
    // a client's Audit-ID sent twice: requests that are not the same
    const twinA = request('twin', t + 20, path, '/a');
    const twinB = request('twin', t + 30, path, '/b');
    // a later event whose objectRef says another name than the path did
    const renamed = request('renamed', t + 40, { ...path, name: 'x' });
    const alone = request('alone', t + 50, path);
    const events: AuditEvent[] = [
      create.received,
      watch.received,
      create.later('ResponseComplete', 5, created),
      watch.later('ResponseStarted', 6),
      twinA.received,
      twinB.received,
      twinA.later('ResponseComplete', 7),
      renamed.received,
      renamed.later('ResponseComplete', 8, { ...path, name: 'y' }),
      watch.later('ResponseComplete', 60),
      alone.received,
    ];
    for (const e of events) b.process(e);
    await b.flush();
    // and one whose request's next event came in another batch
    const late = alone.later('ResponseComplete', 9, { ...path, name: 'alone' });
    events.push(late);
    b.process(late);
    await b.close();

    const [{ rows }] = await sql`SELECT count(*)::int AS rows FROM audit_events`;
    // folded: create's and the watch's RequestReceived
    assert.equal(rows, events.length - 2);
    const got = await sql`SELECT event FROM k8s.audit_events`;
    const key = (e: { stageTimestamp: string; auditID: string; stage: string }) =>
      `${e.stageTimestamp} ${e.auditID} ${e.stage}`;
    const sorted = <T extends { stageTimestamp: string; auditID: string; stage: string }>(xs: T[]) =>
      xs.sort((x, y) => (key(x) < key(y) ? -1 : key(x) > key(y) ? 1 : 0));
    assert.deepEqual(sorted(got.map((r) => r.event)), sorted(events.map((e) => JSON.parse(eventJson(e)))));
    // the view's columns of a folded RequestReceived: only what it named
    const [received] = await sql`SELECT stage, name, namespace, code, impersonated_user, decision
      FROM k8s.audit_events WHERE audit_id = 'create' AND stage = 'RequestReceived'`;
    assert.deepEqual(
      { ...received },
      {
        stage: 'RequestReceived',
        name: null,
        namespace: 'ns',
        code: null,
        impersonated_user: null,
        decision: null,
      },
    );
    assert.deepEqual(losses, []);
  });

  it('a NUL character, which PostgreSQL text cannot hold, is written as U+FFFD; the batch is not lost', async () => {
    await sql`TRUNCATE audit_events`;
    losses.length = 0;
    const b = backend();
    b.process(
      event('nul', nowMicros(), {
        requestURI: '/api/v1/namespaces/ns/configmaps/a\u0000b',
        objectRef: { resource: 'configmaps', namespace: 'ns', name: 'a\u0000b' },
        requestObject: JSON.stringify({ data: { k: 'x\u0000y', escaped: '\\u0000' } }),
      }),
    );
    await b.close();
    const [row] = await sql`SELECT name, request_uri, event FROM k8s.audit_events`;
    assert.equal(row.name, 'a\uFFFDb');
    assert.equal(row.request_uri, '/api/v1/namespaces/ns/configmaps/a\uFFFDb');
    // an escaped backslash before `u0000` is text, not a NUL
    assert.deepEqual(row.event.requestObject, { data: { k: 'x\uFFFDy', escaped: '\\u0000' } });
    assert.deepEqual(losses, []);
  });

  it('a full buffer drops the event and counts it; the request never waits', async () => {
    await sql`TRUNCATE audit_events`;
    losses.length = 0;
    const b = backend({ bufferSize: 3, flushMs: 60_000 });
    const now = nowMicros();
    for (const n of ['a', 'b', 'c', 'd', 'e']) b.process(event(n, now));
    assert.deepEqual(losses, [
      { plugin: 'buffered', events: 1 },
      { plugin: 'buffered', events: 1 },
    ]);
    await b.close();
    const names = (await sql`SELECT name FROM k8s.audit_events ORDER BY name`).map((r) => r.name as string);
    assert.deepEqual(names, ['a', 'b', 'c']);
  });

  it('a failed INSERT loses its batch, counted, and the next batch is written', async () => {
    await sql`TRUNCATE audit_events`;
    losses.length = 0;
    const b = backend();
    b.process(event('same-batch', nowMicros()));
    // beyond int4: PostgreSQL refuses the batch
    b.process(event('bad', nowMicros(), { code: 2 ** 40 }));
    await b.flush();
    assert.deepEqual(losses, [{ plugin: 'database', events: 2 }]);
    b.process(event('after', nowMicros()));
    await b.close();
    const names = (await sql`SELECT name FROM k8s.audit_events`).map((r) => r.name as string);
    assert.deepEqual(names, ['after']);
  });

  it('prunes the rows older than --audit-retention, and only those', async () => {
    await sql`TRUNCATE audit_events`;
    losses.length = 0;
    const b = backend({ retentionMs: 3_600_000 });
    b.process(event('old', Date.parse('2020-01-01T00:00:00Z') * 1000));
    b.process(event('older', Date.parse('2019-06-01T00:00:00Z') * 1000));
    b.process(event('recent', (Date.now() - 60_000) * 1000));
    await b.flush();
    assert.equal(await b.prune(), 2);
    await b.close();
    const names = (await sql`SELECT name FROM k8s.audit_events`).map((r) => r.name as string);
    assert.deepEqual(names, ['recent']);
  });
});

describe('migrating audit events from JSON text to columns (0009)', () => {
  let db: TestDatabase;

  before(async () => {
    db = await testDatabase();
  });

  after(() => db.drop());

  it('every event reads back as it was written, columns filled in', async () => {
    const old = postgres(db.url, { max: 1, onnotice: () => undefined });
    const now = nowMicros();
    const full = JSON.parse(
      eventJson(
        event('full', now, {
          sourceIPs: '["10.0.0.1"]',
          userAgent: 'kubectl/v1.32 "x"',
          code: 404,
          responseStatus: JSON.stringify({ metadata: {}, status: 'Failure', reason: 'NotFound', code: 404 }),
          requestObject: '{"a":null}',
        }),
      ),
    );
    const received = JSON.parse(
      eventJson({
        level: 'Request',
        auditID: 'id-received',
        stage: 'RequestReceived',
        requestURI: '/version',
        verb: 'get',
        user: '{}',
        receivedMicros: now,
        atMicros: now + 1,
      }),
    );
    try {
      // the schema up to the migration that kept each event as JSON text
      await migrateBefore(old, '0009');
      for (const e of [full, received])
        await old`INSERT INTO audit_events (at, event) VALUES (${e.stageTimestamp}, ${JSON.stringify(e)})`;
      // a NUL in an event's text: PostgreSQL's jsonb cannot hold it
      await old`INSERT INTO audit_events (at, event)
        VALUES (now(), ${JSON.stringify({ ...received, auditID: 'id-nul', requestURI: '/a\u0000b' })})`;
    } finally {
      await old.end();
    }

    await migrate(db.url);
    const sql = postgres(db.url, { max: 1, onnotice: () => undefined });
    try {
      const rows =
        await sql`SELECT audit_id, name, code, username, request_uri, event FROM k8s.audit_events ORDER BY at`;
      assert.deepEqual(
        rows.map((r) => r.event),
        [
          full,
          received,
          {
            ...received,
            auditID: 'id-nul',
            requestURI: '/a\uFFFDb',
            stageTimestamp: rows[2].event.stageTimestamp,
          },
        ],
      );
      assert.deepEqual(
        rows.map((r) => [r.audit_id, r.name, r.code, r.username]),
        [
          ['id-full', 'full', 404, 'alice'],
          ['id-received', null, null, null],
          ['id-nul', null, null, null],
        ],
      );
    } finally {
      await sql.end();
    }
  });
});
