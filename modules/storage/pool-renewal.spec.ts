/**
 * postgres.js 3.4.9 keeps a lost connection's state for its next one: a statement written in the same turn as
 * the connection closes leaves its bytes buffered and the flush timer cleared, so the next startup message is
 * never sent and every statement given to that connection fails after connect_timeout, for some twenty seconds
 * (about nine attempts) here. An outage loses many connections so; the store starts over with a new pool when
 * its circuit opens. The connection is broken on purpose below: a statement handed to it in a setImmediate
 * callback (as the write batcher hands its batches), its socket destroyed in the same turn.
 */
import assert from 'node:assert/strict';
import { createConnection, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import postgres from 'postgres';
import { testDatabase, type TestDatabase } from '../../test/support/database.js';
import { migrate } from './database.js';
import { PostgresStore } from './postgres-store.js';

describe('a connection postgres.js left broken', () => {
  let db: TestDatabase;
  const sockets: Socket[] = [];
  const pools: postgres.Sql[] = [];

  /** a one-connection pool whose sockets the test can reach */
  const pool = (): postgres.Sql => {
    const { hostname, port } = new URL(db.url);
    const sql = postgres(db.url, {
      max: 1,
      connect_timeout: 2,
      fetch_types: false,
      onnotice: () => undefined,
      socket: () =>
        new Promise<Socket>((resolve, reject) => {
          const s = createConnection(Number(port), hostname);
          sockets.push(s);
          s.once('connect', () => resolve(s)).once('error', reject);
        }),
    } as postgres.Options<never>);
    pools.push(sql);
    return sql;
  };

  before(async () => {
    db = await testDatabase();
    await migrate(db.url);
  });

  after(async () => {
    await Promise.all(pools.map((p) => p.end({ timeout: 0 })));
    await db.drop();
  });

  it('is left behind once the circuit opens: statements run again within a few seconds', async () => {
    const given = pool();
    const store = new PostgresStore(given, { probeIntervalMs: 50, probeTimeoutMs: 500 }, pool);
    const opened: boolean[] = [];
    store.circuit.onChange((open) => opened.push(open));
    try {
      await store.currentRv();
      await new Promise<void>((resolve) =>
        setImmediate(async () => {
          const statement = given`SELECT 1`;
          statement.catch(() => undefined);
          // handed to the connection within a microtask or two; its bytes wait for the next turn
          for (let i = 0; i < 50 && !(statement as unknown as { state: unknown }).state; i++) await null;
          sockets.at(-1)!.destroy();
          resolve();
        }),
      );
      const started = Date.now();
      let answered = false;
      while (!answered && Date.now() - started < 8000) {
        answered = await store.currentRv().then(
          () => true,
          () => false,
        );
        if (!answered) await new Promise((r) => setTimeout(r, 100));
      }
      assert.ok(answered, 'statements still fail 8 s later');
      assert.deepEqual(opened, [true, false], 'the circuit opened (a new pool) and closed again');
    } finally {
      await store.close();
    }
  });
});
