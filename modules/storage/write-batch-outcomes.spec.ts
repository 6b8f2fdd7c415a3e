/**
 * Per-write outcomes of one batch: writes that fail their precondition report why, and never take their
 * batch-mates down with them.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type postgres from 'postgres';
import { testDatabase, type TestDatabase } from '../../test/support/database.js';
import type { KubeObject } from '../api/index.js';
import { connect, migrate } from './database.js';
import { PostgresStore } from './postgres-store.js';
import {
  AlreadyExistsError,
  ConflictError,
  NotFoundError,
  RequiredObjectDeletingError,
  RequiredObjectMissingError,
  type Change,
  type ObjectKey,
} from './store.js';

const cm = (name: string, namespace = 'ns'): ObjectKey => ({ resource: '/configmaps', namespace, name });
/** creates in namespace `name` require it */
const inNs = (name = 'ns') => ({ requires: { resource: '/namespaces', namespace: '', name } });

function object(key: ObjectKey, extra: Partial<KubeObject['metadata']> = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: key.name, namespace: key.namespace || undefined, uid: randomUUID(), ...extra },
  } as KubeObject;
}

describe('write batch outcomes', () => {
  let db: TestDatabase;
  let sql: postgres.Sql;
  let store: PostgresStore;

  before(async () => {
    db = await testDatabase();
    await migrate(db.url);
    sql = connect(db.url, 4);
    store = new PostgresStore(sql);
    for (const name of ['ns', 'going']) {
      const key = { resource: '/namespaces', namespace: '', name };
      const extra = name === 'going' ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {};
      await store.create(key, object(key, extra));
    }
  });

  after(async () => {
    await sql.end();
    await db.drop();
  });

  it('reports each failing write and commits its batch-mates in one batch', async () => {
    await store.create(cm('taken'), object(cm('taken')), inNs());
    const toDelete = await store.create(cm('del'), object(cm('del')), inNs());
    const toUpdate = await store.create(cm('upd'), object(cm('upd')), inNs());
    const stale = await store.create(cm('stale'), object(cm('stale')), inNs());
    const commits: { base: number; changes: Change[] }[] = [];
    await store.subscribe((local) => local && commits.push(local));

    // submitted in one turn on distinct keys: the batcher sends them as one statement
    const results = await Promise.allSettled([
      store.create(cm('new'), object(cm('new')), inNs()),
      store.create(cm('taken'), object(cm('taken')), inNs()),
      store.create(cm('x', 'nowhere'), object(cm('x', 'nowhere')), inNs('nowhere')),
      store.create(cm('x', 'going'), object(cm('x', 'going')), inNs('going')),
      store.update(cm('upd'), object(cm('upd')), toUpdate.rv),
      store.update(cm('stale'), object(cm('stale')), stale.rv - 1),
      store.update(cm('absent'), object(cm('absent')), 5),
      store.delete(cm('del'), toDelete.rv),
      store.delete(cm('absent2'), 5),
    ]);
    const reason = (i: number) => (results[i] as PromiseRejectedResult).reason;
    const value = (i: number) =>
      (results[i] as PromiseFulfilledResult<{ rv: number; object: KubeObject }>).value;
    assert.equal(commits.length, 1, 'one batch');
    const { base } = commits[0];
    assert.equal(value(0).rv, base + 1);
    assert.ok(reason(1) instanceof AlreadyExistsError, String(reason(1)));
    assert.ok(reason(2) instanceof RequiredObjectMissingError, String(reason(2)));
    assert.deepEqual(reason(2).key, inNs('nowhere').requires);
    assert.ok(reason(3) instanceof RequiredObjectDeletingError, String(reason(3)));
    assert.deepEqual(reason(3).key, inNs('going').requires);
    assert.equal(value(4).rv, base + 5);
    assert.ok(reason(5) instanceof ConflictError, String(reason(5)));
    assert.ok(reason(6) instanceof NotFoundError, String(reason(6)));
    assert.equal(value(7).rv, base + 8);
    assert.equal(value(7).object.metadata.uid, toDelete.object.metadata.uid, 'the removed body');
    assert.ok(reason(8) instanceof NotFoundError, String(reason(8)));

    const { changes } = await store.changes(base, 100);
    assert.deepEqual(
      changes.map((c) => [c.rv - base, c.type, c.name]),
      [
        [1, 'ADDED', 'new'],
        [5, 'MODIFIED', 'upd'],
        [8, 'DELETED', 'del'],
      ],
    );
    assert.equal(await store.get(cm('del')), undefined);
  });

  // The absence check reads the statement's snapshot, taken before the statement waits for the revision row:
  // a key committed meanwhile (by another replica) must still come out as AlreadyExists, and the other
  // writes of its batch must still commit.
  for (const names of [['raced', 'bystander'], ['raced-alone']]) {
    it(`reports AlreadyExists for a key committed while its batch waited (batch of ${names.length})`, async () => {
      const other = connect(db.url, 1);
      try {
        const holding = other.begin(async (tx) => {
          await tx`SELECT rv FROM revision WHERE id = 1 FOR UPDATE`;
          const results = Promise.allSettled(
            names.map((name) => store.create(cm(name), object(cm(name)), inNs())),
          );
          // let the batch start and block on the row lock, then commit the key from elsewhere
          await waitForLockWaiter(sql);
          await sql`INSERT INTO objects (resource, namespace, name, uid, rv)
            VALUES ('/configmaps', 'ns', ${names[0]}, ${randomUUID()}, 1)`;
          // wrapped: returning the promise itself would make the transaction wait for the writes it blocks
          return { results };
        });
        const [raced, ...others] = await (await holding).results;
        assert.equal(raced.status, 'rejected');
        assert.ok((raced as PromiseRejectedResult).reason instanceof AlreadyExistsError, String(raced));
        for (const [i, result] of others.entries()) {
          assert.equal(result.status, 'fulfilled');
          assert.ok(await store.get(cm(names[i + 1])));
        }
      } finally {
        await other.end();
      }
    });
  }
});

async function waitForLockWaiter(sql: postgres.Sql): Promise<void> {
  for (let tries = 0; tries < 200; tries++) {
    const [{ n }] = await sql`SELECT count(*)::int AS n FROM pg_stat_activity
      WHERE datname = current_database() AND wait_event_type = 'Lock'`;
    if (n > 0) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('the batch never waited for the revision row');
}
