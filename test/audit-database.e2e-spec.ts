/**
 * The audit database backend against real PostgreSQL, without a server: what reaches the table and what the
 * view `k8s.audit_events` reads out of it, and the losses it counts (a full buffer, a failed INSERT), and
 * --audit-retention's pruning.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import postgres from 'postgres';
import { DatabaseBackend, databaseBackendDefaults } from '../modules/audit/index.js';
import { migrate } from '../modules/storage/index.js';
import { testDatabase, type TestDatabase } from './support/database.js';

/** an event as the auditor writes it: JSON on one line, its stageTimestamp beside it */
function event(name: string, at: string, extra: Record<string, unknown> = {}) {
  const e = {
    kind: 'Event',
    apiVersion: 'audit.k8s.io/v1',
    level: 'Metadata',
    auditID: `id-${name}`,
    stage: 'ResponseComplete',
    requestURI: `/api/v1/namespaces/ns/configmaps/${name}`,
    verb: 'delete',
    user: { username: 'alice', groups: ['dev'] },
    impersonatedUser: { username: 'bob' },
    objectRef: { resource: 'configmaps', namespace: 'ns', name, apiVersion: 'v1' },
    responseStatus: { metadata: {}, code: 200 },
    requestReceivedTimestamp: at,
    stageTimestamp: at,
    annotations: { 'authorization.k8s.io/decision': 'allow', 'authorization.k8s.io/reason': '' },
    ...extra,
  };
  return { json: JSON.stringify(e), at };
}

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

  it('writes each event as sent; the view names its fields', async () => {
    await sql`TRUNCATE audit_events`;
    losses.length = 0;
    const b = backend();
    const now = new Date().toISOString().replace('Z', '123Z');
    const odd = event('odd', now, { userAgent: 'grüße "q" back\\slash\ttab\nline ✓' });
    b.process(event('plain', now));
    b.process(odd);
    await b.close();
    const rows =
      await sql`SELECT verb, username, impersonated_user, resource, namespace, name, code, decision,
      stage, level, audit_id, at, received_at, event FROM k8s.audit_events ORDER BY audit_id DESC`;
    assert.equal(rows.length, 2);
    assert.deepEqual(
      { ...rows[0], at: undefined, received_at: undefined, event: undefined },
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
        at: undefined,
        received_at: undefined,
        event: undefined,
      },
    );
    assert.equal((rows[0].at as Date).toISOString(), new Date(now).toISOString());
    // the whole event, as the log file would hold it
    assert.deepEqual(rows[1].event, JSON.parse(odd.json));
    assert.equal((await sql`SELECT event FROM audit_events WHERE event LIKE '%id-odd%'`)[0].event, odd.json);
    assert.deepEqual(losses, []);
  });

  it('a full buffer drops the event and counts it; the request never waits', async () => {
    await sql`TRUNCATE audit_events`;
    losses.length = 0;
    const b = backend({ bufferSize: 3, flushMs: 60_000 });
    const now = new Date().toISOString();
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
    b.process(event('same-batch', new Date().toISOString()));
    b.process(event('bad', 'not a time'));
    await b.flush();
    assert.deepEqual(losses, [{ plugin: 'database', events: 2 }]);
    b.process(event('after', new Date().toISOString()));
    await b.close();
    const names = (await sql`SELECT name FROM k8s.audit_events`).map((r) => r.name as string);
    assert.deepEqual(names, ['after']);
  });

  it('prunes the rows older than --audit-retention, and only those', async () => {
    await sql`TRUNCATE audit_events`;
    losses.length = 0;
    const b = backend({ retentionMs: 3_600_000 });
    b.process(event('old', '2020-01-01T00:00:00.000000Z'));
    b.process(event('older', '2019-06-01T00:00:00.000000Z'));
    b.process(event('recent', new Date(Date.now() - 60_000).toISOString()));
    await b.flush();
    assert.equal(await b.prune(), 2);
    await b.close();
    const names = (await sql`SELECT name FROM k8s.audit_events`).map((r) => r.name as string);
    assert.deepEqual(names, ['recent']);
  });
});
