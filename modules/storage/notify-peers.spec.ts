/**
 * Change notifications go out only while another replica listens. An observer that LISTENs with a statement
 * text other than the one replicas use is not taken for a replica, so it sees whether a write notified.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import postgres from 'postgres';
import { testDatabase, type TestDatabase } from '../../test/support/database.js';
import { connect, migrate } from './database.js';
import { PostgresStore } from './postgres-store.js';
import { CHANGE_CHANNEL } from './write-batch.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('change notifications between replicas', () => {
  let db: TestDatabase;
  const pools: postgres.Sql[] = [];
  let observer: postgres.Sql;
  let notified = 0;

  before(async () => {
    db = await testDatabase();
    await migrate(db.url);
    pools.push(connect(db.url, 2), connect(db.url, 2));
    // postgres.js passes every notification of its connections to `onnotify` (an option its types leave out)
    const options = { max: 1, onnotify: () => notified++ };
    observer = postgres(db.url, options as postgres.Options<Record<string, never>>);
    await observer.unsafe(`LISTEN ${CHANGE_CHANNEL}`);
  });

  after(async () => {
    await Promise.all([...pools, observer].map((p) => p.end()));
    await db.drop();
  });

  let n = 0;
  const write = (store: PostgresStore) =>
    store.create(
      { resource: '/configmaps', namespace: '', name: `cm-${n++}` },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${n}`, uid: randomUUID() } },
    );

  /** Writes through `store` until `seen` holds or `ms` pass; true when it held. */
  async function writesUntil(store: PostgresStore, seen: () => boolean, ms: number): Promise<boolean> {
    const end = Date.now() + ms;
    while (Date.now() < end) {
      await write(store);
      await sleep(100);
      if (seen()) return true;
    }
    return false;
  }

  it('stay off while a replica is alone, start when a second one listens, stop when it leaves', async () => {
    const a = new PostgresStore(pools[0]);
    const stopA = await a.subscribe(() => undefined);
    await sleep(1500);
    notified = 0;
    for (let i = 0; i < 5; i++) await write(a);
    await sleep(300);
    assert.equal(notified, 0, 'a replica alone sent notifications');

    const b = new PostgresStore(pools[1]);
    let hints = 0;
    const stopB = await b.subscribe((local) => {
      if (!local) hints++;
    });
    assert.ok(await writesUntil(a, () => hints > 0, 3000), 'the second replica was never notified');
    assert.ok(notified > 0);

    await stopB();
    await sleep(1500);
    notified = 0;
    for (let i = 0; i < 5; i++) await write(a);
    await sleep(300);
    assert.equal(notified, 0, 'notifications went on after the second replica left');
    await stopA();
  });
});
