/**
 * A statement whose connection is lost while the database is up (its backend terminated, as at the end of an
 * outage when pooled connections meet the restarted server): a read runs once more and answers, a write is
 * never run again. The statement is held on a table lock so that its backend can be terminated mid-statement.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type postgres from 'postgres';
import { testDatabase, type TestDatabase } from '../../test/support/database.js';
import type { KubeObject } from '../api/index.js';
import { connect, migrate } from './database.js';
import { PostgresStore } from './postgres-store.js';
import { StorageTimeoutError, type ObjectKey } from './store.js';

const key = (name: string): ObjectKey => ({ resource: '/configmaps', namespace: 'ns', name });
const object = (name: string): KubeObject =>
  ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: 'ns', uid: randomUUID() },
  }) as KubeObject;

/** the backend of this database waiting for a lock, other than those in `seen` */
async function lockWaiter(sql: postgres.Sql, seen: number[] = []): Promise<number> {
  for (let tries = 0; tries < 500; tries++) {
    const rows = await sql`SELECT pid FROM pg_stat_activity
      WHERE datname = current_database() AND wait_event_type = 'Lock' AND NOT (pid = ANY(string_to_array(${seen.join(',')}, ',')::int[]))`;
    if (rows.length > 0) return rows[0].pid;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('no statement waited for the lock');
}

describe('a statement whose connection is lost while the database is up', () => {
  let db: TestDatabase;
  let sql: postgres.Sql;
  let store: PostgresStore;
  /** holds the lock (one connection, in its transaction) */
  let holder: postgres.Sql;
  /** looks at and terminates backends */
  let admin: postgres.Sql;

  before(async () => {
    db = await testDatabase();
    await migrate(db.url);
    sql = connect(db.url, 4);
    store = new PostgresStore(sql);
    holder = connect(db.url, 1);
    admin = connect(db.url, 1);
    await store.create(key('kept'), object('kept'));
  });

  after(async () => {
    await store.close();
    // a connection lost mid-statement keeps postgres.js's end() waiting for it: bounded, as the server does
    await Promise.all([sql.end({ timeout: 1 }), holder.end(), admin.end()]);
    await db.drop();
  });

  /** runs `start` while objects is locked, terminates the backend it waits in, then releases the lock */
  async function terminatedWhileLocked<T>(
    start: () => Promise<T>,
  ): Promise<{ outcome: Promise<T>; retried: boolean }> {
    return holder.begin(async (tx) => {
      await tx`LOCK TABLE objects IN ACCESS EXCLUSIVE MODE`;
      const outcome = start();
      outcome.catch(() => undefined);
      const pid = await lockWaiter(admin);
      await admin`SELECT pg_terminate_backend(${pid})`;
      // a statement run again waits for the lock in another backend; give it the time to get there
      const again = await Promise.race([
        lockWaiter(admin, [pid]).then(() => true),
        new Promise<boolean>((r) => setTimeout(() => r(false), 1000)),
      ]);
      // wrapped: returning the promise itself would make the transaction wait for what it blocks
      return { outcome, retried: again };
    });
  }

  it('a read runs once more and answers; the circuit stays closed', async () => {
    const { outcome, retried } = await terminatedWhileLocked(() => store.get(key('kept')));
    assert.equal(retried, true);
    const read = await outcome;
    assert.equal(read?.object.metadata.name, 'kept');
    assert.equal(store.circuit.open, false);
  });

  it('a write is not run again: its writer hears 504 (it may have committed) and it stays unapplied', async () => {
    const { outcome, retried } = await terminatedWhileLocked(() => store.create(key('lost'), object('lost')));
    assert.equal(retried, false);
    await assert.rejects(outcome, StorageTimeoutError);
    assert.equal(await store.get(key('lost')), undefined);
  });
});
