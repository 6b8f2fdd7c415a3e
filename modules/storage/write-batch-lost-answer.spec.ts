/**
 * A batch whose answer does not arrive after it committed (the connection reset, or an answer the driver cannot
 * read) may have applied its writes. Its writers hear 504 (kube's answer for a write of unknown outcome), not
 * 503, and its writes are never run again: run again, each would find its own key taken and answer 409
 * AlreadyExists to a client that created it once (the 409 test/postgres-outage.e2e-spec.ts used to tolerate).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type postgres from 'postgres';
import { testDatabase, type TestDatabase } from '../../test/support/database.js';
import { pgProxy, type Fate, type PgProxy } from '../../test/support/pg-proxy.js';
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

describe('a write batch whose answer is lost after its commit', () => {
  let db: TestDatabase;
  let direct: PostgresStore;
  let directSql: postgres.Sql;
  let proxy: PgProxy;

  before(async () => {
    db = await testDatabase();
    await migrate(db.url);
    directSql = connect(db.url, 2);
    direct = new PostgresStore(directSql);
    proxy = await pgProxy(db.url);
  });

  after(async () => {
    direct.close();
    await directSql.end();
    await proxy.close();
    await db.drop();
  });

  const cases: [Fate, string][] = [
    ['drop', 'the connection is reset before the answer'],
    ['corrupt', 'the answer cannot be read'],
  ];
  for (const [fate, what] of cases) {
    it(`${what}: its writers hear 504, their writes committed once and are not run again`, async () => {
      // a pool of its own: the batch is the first statement on its connection, its text goes over the wire
      const sql = connect(proxy.url, 1);
      const store = new PostgresStore(sql);
      try {
        const names = [`${fate}-a`, `${fate}-b`];
        const spoiled = proxy.arm('INSERT INTO objects', fate);
        // submitted in one turn: one batch of two
        const results = await Promise.allSettled(names.map((n) => store.create(key(n), object(n))));
        await spoiled;
        for (const [i, r] of results.entries()) {
          assert.equal(r.status, 'rejected', names[i]);
          const reason = (r as PromiseRejectedResult).reason;
          assert.ok(reason instanceof StorageTimeoutError, `${names[i]}: ${reason}`);
          assert.ok(await direct.get(key(names[i])), `${names[i]} committed`);
        }
      } finally {
        await store.close();
        await sql.end({ timeout: 1 });
      }
    });
  }
});
