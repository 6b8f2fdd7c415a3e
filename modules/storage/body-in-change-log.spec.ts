/**
 * An object's body is stored once, in its change-log row at objects.rv: pruning must keep that row however old
 * it is, and databases made before (bodies in objects, log rows pruned) must keep every object readable.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type postgres from 'postgres';
import { testDatabase, type TestDatabase } from '../../test/support/database.js';
import { migrateBefore } from '../../test/support/migrations.js';
import type { KubeObject } from '../api/index.js';
import { connect, migrate } from './database.js';
import { PostgresStore } from './postgres-store.js';
import { RequiredObjectDeletingError, type ObjectKey } from './store.js';

const cm = (name: string): ObjectKey => ({ resource: '/configmaps', namespace: 'ns', name });

function configMap(key: ObjectKey, value: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: key.name, namespace: key.namespace, uid: randomUUID() },
    data: { v: value },
  } as KubeObject;
}

const dataOf = (stored: { object: KubeObject } | undefined) =>
  (stored?.object as { data?: Record<string, string> } | undefined)?.data?.v;

describe('bodies in the change log', () => {
  let db: TestDatabase;
  let sql: postgres.Sql;
  let store: PostgresStore;

  before(async () => {
    db = await testDatabase();
    await migrate(db.url);
    sql = connect(db.url, 2);
    store = new PostgresStore(sql);
  });

  after(async () => {
    await sql.end();
    await db.drop();
  });

  it('pruning drops replaced and deleted revisions and keeps each current body, however old', async () => {
    const kept = await store.create(cm('kept'), configMap(cm('kept'), 'one'));
    const changed = await store.create(cm('changed'), configMap(cm('changed'), 'one'));
    const updated = await store.update(cm('changed'), configMap(cm('changed'), 'two'), changed.rv);
    const gone = await store.create(cm('gone'), configMap(cm('gone'), 'one'));
    const deleted = await store.delete(cm('gone'), gone.rv);
    assert.equal(dataOf(deleted), 'one', 'the DELETED change carries the last body');
    const last = await store.create(cm('last'), configMap(cm('last'), 'one'));

    // everything is older than a window of 0 ms; the newest row always stays
    await store.pruneChanges(0);
    const left = await sql`SELECT rv FROM changes ORDER BY rv`;
    assert.deepEqual(
      left.map((r) => Number(r.rv)),
      [kept.rv, updated.rv, last.rv],
    );
    assert.equal(dataOf(await store.get(cm('kept'))), 'one');
    assert.equal(dataOf(await store.get(cm('changed'))), 'two');
    assert.equal(await store.get(cm('gone')), undefined);
    const list = await store.list('/configmaps', 'ns');
    assert.deepEqual(
      list.items.map((i) => [i.object.metadata.name, i.rv, dataOf(i)]),
      [
        ['changed', updated.rv, 'two'],
        ['kept', kept.rv, 'one'],
        ['last', last.rv, 'one'],
      ],
    );

    // a revision kept because it was current goes once it is replaced
    const replaced = await store.update(cm('kept'), configMap(cm('kept'), 'two'), kept.rv);
    await store.pruneChanges(0);
    const after = await sql`SELECT rv FROM changes ORDER BY rv`;
    assert.deepEqual(
      after.map((r) => Number(r.rv)),
      [updated.rv, last.rv, replaced.rv],
    );
    const snapshot = await store.snapshot();
    assert.deepEqual(snapshot.items.map((i) => dataOf(i)).sort(), ['one', 'two', 'two']);
  });

  it('most pruning runs look only at rows that aged since the last; every tenth looks at all', async () => {
    const pruner = new PostgresStore(sql);
    const key = cm('aged');
    const first = await store.create(key, configMap(key, 'one'));
    const hourAgo = () => sql`UPDATE changes SET at = now() - interval '1 hour' WHERE rv = ${first.rv}`;
    await hourAgo();
    await pruner.pruneChanges(600_000); // a sweep: the row is current, so it stays
    await store.update(key, configMap(key, 'two'), first.rv);
    const present = async () => (await sql`SELECT 1 FROM changes WHERE rv = ${first.rv}`).length > 0;
    for (let run = 1; run < 10; run++) {
      await pruner.pruneChanges(600_000);
      assert.ok(await present(), `run ${run} looked only at rows younger than the last run's limit`);
    }
    await pruner.pruneChanges(600_000);
    assert.equal(await present(), false, 'the tenth run swept the whole log');
    assert.equal(dataOf(await store.get(key)), 'two');
  });

  it('a namespace whose creation is long pruned still admits creates, and is seen terminating', async () => {
    const ns = { resource: '/namespaces', namespace: '', name: 'old-ns' };
    const namespace = (extra = {}): KubeObject => ({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'old-ns', uid: '6a1c1c5e-0000-4000-8000-000000000001', ...extra },
    });
    const created = await store.create(ns, namespace());
    await store.create(cm('filler'), configMap(cm('filler'), 'x'));
    await store.pruneChanges(0);
    const key = { resource: '/configmaps', namespace: 'old-ns', name: 'inside' };
    await store.create(key, configMap(key, 'x'), { requires: ns });
    await store.update(ns, namespace({ deletionTimestamp: '2026-01-01T00:00:00Z' }), created.rv);
    const late = { ...key, name: 'late' };
    await assert.rejects(
      store.create(late, configMap(late, 'x'), { requires: ns }),
      RequiredObjectDeletingError,
    );
  });
});

describe('migrating bodies out of objects', () => {
  let db: TestDatabase;

  before(async () => {
    db = await testDatabase();
  });

  after(() => db.drop());

  it('puts pruned bodies back in the log, outside the history window, and every object reads as before', async () => {
    const old = connect(db.url, 1);
    try {
      // the migrations as they were before bodies moved: 0000-0002
      await migrateBefore(old, '0003');
      const body = (name: string) =>
        JSON.stringify({
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name, namespace: 'ns' },
          data: { v: name },
        });
      // 'pruned' lost its change-log row to pruning; 'logged' still has its own
      await old`INSERT INTO objects (resource, namespace, name, uid, rv, body) VALUES
        ('/configmaps', 'ns', 'pruned', ${randomUUID()}, 5, ${body('pruned')}::jsonb),
        ('/configmaps', 'ns', 'logged', ${randomUUID()}, 7, ${body('logged')}::jsonb)`;
      await old`INSERT INTO changes (rv, resource, namespace, name, type, body)
        VALUES (7, '/configmaps', 'ns', 'logged', 1, ${body('logged')}::jsonb)`;
      await old`UPDATE revision SET rv = 7 WHERE id = 1`;
    } finally {
      await old.end();
    }

    await migrate(db.url);
    const sql = connect(db.url, 1);
    try {
      const store = new PostgresStore(sql);
      assert.equal(dataOf(await store.get(cm('pruned'))), 'pruned');
      assert.equal((await store.get(cm('pruned')))?.rv, 5);
      assert.equal(dataOf(await store.get(cm('logged'))), 'logged');
      // the restored row is not history: a watch cache starting now begins its history after it
      assert.equal(await store.historyStart(60_000), 6);
      const [{ columns }] = await sql`
        SELECT count(*)::int AS columns FROM information_schema.columns
        WHERE table_name = 'objects' AND column_name = 'body'`;
      assert.equal(columns, 0);
    } finally {
      await sql.end();
    }
  });
});
