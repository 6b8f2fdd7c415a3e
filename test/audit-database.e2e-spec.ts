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
