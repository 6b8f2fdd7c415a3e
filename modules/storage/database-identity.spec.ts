/**
 * A restored database is noticed at start: the revision counter jumps RESTORE_REVISION_BUMP ahead once, however
 * many replicas start together, and history before the jump counts as compacted (historyStart). A database
 * started on again, or new, is left as it is. (test/backup-restore.e2e-spec.ts restores a real pg_dump.)
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type postgres from 'postgres';
import { testDatabase, type TestDatabase } from '../../test/support/database.js';
import type { KubeObject } from '../api/index.js';
import { connect, migrate } from './database.js';
import { liveIdentity, RESTORE_REVISION_BUMP } from './database-identity.js';
import { PostgresStore } from './postgres-store.js';

const configMap = (name: string): KubeObject =>
  ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: 'ns', uid: randomUUID() },
  }) as KubeObject;

describe('database identity: a restored database', () => {
  let db: TestDatabase;
  let sql: postgres.Sql;
  let store: PostgresStore;

  before(async () => {
    db = await testDatabase();
    sql = connect(db.url, 2);
    store = new PostgresStore(sql);
  });

  after(async () => {
    await store.close();
    await sql.end();
    await db.drop();
  });

  it('a new database records its identity and keeps its revisions', async () => {
    const first = await migrate(db.url);
    assert.deepEqual(first, { restored: false, historyFrom: 0, foundRv: 1 });
    const [row] = await sql`SELECT identity, history_from FROM database_identity`;
    assert.equal(row.identity, await liveIdentity(sql));
    assert.match(row.identity, /^\d+\/\d+\/[0-9A-F]{8}$/, 'system identifier / database OID / timeline');
    await store.create({ resource: '/configmaps', namespace: 'ns', name: 'a' }, configMap('a'));
    // started on again: nothing changes
    assert.deepEqual(await migrate(db.url), { restored: false, historyFrom: 0, foundRv: 2 });
    assert.equal(await store.currentRv(), 2);
    assert.equal(await store.historyStart(60_000), 1);
  });

  it('another identity: replicas starting together jump the counter once and compact history', async () => {
    const before = await store.currentRv();
    // what a restore brings: the row of the database the dump was taken from
    await sql`UPDATE database_identity SET identity = 'another/database/00000001'`;
    const starts = await Promise.all([migrate(db.url), migrate(db.url), migrate(db.url)]);
    const restored = starts.filter((s) => s.restored);
    assert.equal(restored.length, 1, JSON.stringify(starts));
    const historyFrom = before + RESTORE_REVISION_BUMP;
    for (const s of starts) assert.equal(s.historyFrom, historyFrom);
    assert.equal(restored[0].foundRv, before);
    assert.equal(await store.currentRv(), historyFrom);
    // the changes kept from before the restore are not history any more: watches from them answer 410
    assert.equal(await store.historyStart(60 * 60_000), historyFrom);
    // objects keep their revisions; new writes come after the jump
    assert.equal((await store.get({ resource: '/configmaps', namespace: 'ns', name: 'a' }))?.rv, 2);
    const b = await store.create({ resource: '/configmaps', namespace: 'ns', name: 'b' }, configMap('b'));
    assert.equal(b.rv, historyFrom + 1);
    assert.equal(await store.historyStart(60 * 60_000), historyFrom);
    // and the next start finds its own identity
    assert.deepEqual(await migrate(db.url), { restored: false, historyFrom, foundRv: historyFrom + 1 });
  });
});
