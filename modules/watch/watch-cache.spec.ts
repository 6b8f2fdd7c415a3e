/**
 * The watch cache on a real PostgresStore: it starts from a snapshot, follows this replica's commits and
 * another writer's, serves reads at past revisions from its history, and trims that history.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type postgres from 'postgres';
import { testDatabase, type TestDatabase } from '../../test/support/database.js';
import type { KubeObject } from '../api/index.js';
import {
  AlreadyExistsError,
  connect,
  migrate,
  PostgresStore,
  type Change,
  type ObjectKey,
  type Store,
} from '../storage/index.js';
import type { CachedEvent } from './events.js';
import { objectKey } from './sorted-index.js';
import { WatchCache, type CacheListener, type WatchCacheOptions } from './watch-cache.js';

const HOUR = 3_600_000;

let resources = 0;
const freshResource = () => `/things${++resources}`;

function thing(key: ObjectKey, v = '1'): KubeObject {
  const metadata: KubeObject['metadata'] = { name: key.name, uid: randomUUID() };
  if (key.namespace) metadata.namespace = key.namespace;
  return { apiVersion: 'v1', kind: 'Thing', metadata, data: { v } };
}

/** `namespace/name@rv v` of each object: its key, its revision and its content */
const shown = (objects: KubeObject[]) =>
  objects.map(
    (o) =>
      `${o.metadata.namespace ?? ''}/${o.metadata.name}@${o.metadata.resourceVersion} ${(o.data as { v: string }).v}`,
  );

class Recorder implements CacheListener {
  /** records every resource's events (no watch of its own to end) */
  readonly resource = '*';
  events: CachedEvent[] = [];
  flushes = 0;
  closed = false;
  onEvent(event: CachedEvent): void {
    this.events.push(event);
  }
  flush(): void {
    this.flushes++;
  }
  close(): void {
    this.closed = true;
  }
  of(resource: string): CachedEvent[] {
    return this.events.filter((e) => e.resource === resource);
  }
}

async function changesAfter(store: Store, rv: number): Promise<Change[]> {
  const all: Change[] = [];
  for (;;) {
    const page = await store.changes(rv, 100);
    if (page.changes.length === 0) return all;
    all.push(...page.changes);
    rv = page.rv;
  }
}

async function until(what: string, done: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('watch cache', () => {
  let db: TestDatabase;
  const pools: postgres.Sql[] = [];
  const caches: WatchCache[] = [];
  /** another replica: its commits reach a cache only through the change log */
  let peer: PostgresStore;

  before(async () => {
    db = await testDatabase();
    await migrate(db.url);
    pools.push(connect(db.url, 2));
    peer = new PostgresStore(pools[0]);
  });

  after(async () => {
    for (const cache of caches) await cache.stop();
    await Promise.all(pools.map((p) => p.end()));
    await db.drop();
  });

  /** a cache on a store of its own (this replica's writes go through `store`) */
  function openCache(options: Partial<WatchCacheOptions> = {}): { store: PostgresStore; cache: WatchCache } {
    const sql = connect(db.url, 2);
    pools.push(sql);
    const store = new PostgresStore(sql);
    const cache = new WatchCache(store, { retentionMs: HOUR, ...options });
    caches.push(cache);
    return { store, cache };
  }

  it('starts from a snapshot, with the history before it', async () => {
    const resource = freshResource();
    const [a, b] = [
      { resource, namespace: 'ns', name: 'a' },
      { resource, namespace: '', name: 'b' },
    ];
    const a1 = await peer.create(a, thing(a, '1'));
    const b1 = await peer.create(b, thing(b));
    const a2 = await peer.update(a, thing(a, '2'), a1.rv);

    const { cache } = openCache();
    assert.equal(cache.synced, false);
    await cache.start();
    assert.equal(cache.synced, true);
    const current = await peer.currentRv();
    assert.equal(cache.rv, current);
    assert.deepEqual(cache.get(resource, 'ns', 'a'), a2.object);
    assert.equal(cache.get(resource, 'ns', 'b'), undefined);
    assert.deepEqual(shown(cache.list(resource)), [`/b@${b1.rv} 1`, `ns/a@${a2.rv} 2`]);
    assert.deepEqual(shown(cache.list(resource, 'ns')), [`ns/a@${a2.rv} 2`]);
    assert.equal(cache.objectCounts().get(resource), 2);

    // a watch may resume from before the snapshot; an exact list may not (states before it are not all known)
    assert.ok(cache.oldestRv < a1.rv);
    assert.equal(cache.oldestExactRv, current);
    const history = cache.eventsAfter(a1.rv - 1);
    assert.deepEqual(
      history.map((e) => `${e.type} ${e.name} ${e.rv}`),
      [`ADDED a ${a1.rv}`, `ADDED b ${b1.rv}`, `MODIFIED a ${a2.rv}`],
    );
    assert.deepEqual(history[2].prev, a1.object, 'the state before, known within the loaded history');
  });

  it("applies this replica's commits before their writers are answered, with each object's state before", async () => {
    const { store, cache } = openCache();
    await cache.start();
    const recorder = new Recorder();
    cache.addListener(recorder);
    const resource = freshResource();
    const key = { resource, namespace: 'ns', name: 'a' };

    const a1 = await store.create(key, thing(key, '1'));
    assert.equal(cache.rv, a1.rv);
    assert.deepEqual(cache.get(resource, 'ns', 'a'), a1.object);
    assert.equal(cache.objectCounts().get(resource), 1);
    const a2 = await store.update(key, thing(key, '2'), a1.rv);
    assert.deepEqual(cache.get(resource, 'ns', 'a'), a2.object);
    const gone = await store.delete(key, a2.rv);
    assert.equal(cache.rv, gone.rv);
    assert.equal(cache.get(resource, 'ns', 'a'), undefined);
    assert.equal(cache.objectCounts().get(resource), 0);

    assert.deepEqual(
      recorder.of(resource).map((e) => [e.type, e.rv, e.object, e.prev]),
      [
        ['ADDED', a1.rv, a1.object, undefined],
        ['MODIFIED', a2.rv, a2.object, a1.object],
        ['DELETED', gone.rv, gone.object, a2.object],
      ],
    );
    assert.ok(recorder.flushes >= 3, 'each commit is flushed');
  });

  it("a listener hears its own resource's changes only; `*` hears every resource; removed, none", async () => {
    const { store, cache } = openCache();
    await cache.start();
    const [mine, other] = [freshResource(), freshResource()];
    const only = Object.assign(new Recorder(), { resource: mine });
    const every = new Recorder();
    cache.addListener(only);
    cache.addListener(every);
    const put = (resource: string, name: string) => {
      const key = { resource, namespace: 'ns', name };
      return store.create(key, thing(key));
    };
    const a = await put(mine, 'a');
    const b = await put(other, 'b');
    assert.deepEqual(
      only.events.map((e) => e.rv),
      [a.rv],
    );
    assert.deepEqual(
      every.events.map((e) => e.rv),
      [a.rv, b.rv],
    );
    cache.removeListener(only);
    await put(mine, 'c');
    assert.equal(only.events.length, 1);
    assert.equal(every.events.length, 3);
    cache.endWatchers(mine);
    assert.equal(only.closed, false, 'a removed listener is not closed again');
    cache.addListener(only);
    cache.endWatchers(other);
    assert.equal(only.closed, false);
    cache.endWatchers(mine);
    assert.equal(only.closed, true);
  });

  it("follows another writer's commits, and the revisions its failed writes took", async () => {
    const { cache } = openCache();
    await cache.start();
    const recorder = new Recorder();
    cache.addListener(recorder);
    const resource = freshResource();
    const key = { resource, namespace: 'ns', name: 'x' };
    const x1 = await peer.create(key, thing(key, '1'));
    const x2 = await peer.update(key, thing(key, '2'), x1.rv);
    await assert.rejects(peer.create(key, thing(key)), AlreadyExistsError);
    const end = await peer.currentRv();
    assert.ok(end > x2.rv);

    assert.equal(await cache.waitFor(end, 5000), true);
    assert.equal(cache.rv, end);
    assert.deepEqual(cache.get(resource, 'ns', 'x'), x2.object);
    assert.deepEqual(
      recorder.of(resource).map((e) => [e.type, e.rv, e.prev?.metadata.resourceVersion]),
      [
        ['ADDED', x1.rv, undefined],
        ['MODIFIED', x2.rv, String(x1.rv)],
      ],
    );
    assert.equal(await cache.waitFor(end + 1000, 50), false, 'a revision nobody wrote is never reached');
  });

  it('sees every change once, in revision order, when this replica and another write at once', async () => {
    const { store, cache } = openCache();
    await cache.start();
    const recorder = new Recorder();
    cache.addListener(recorder);
    const resource = freshResource();
    const start = cache.rv;
    await Promise.all(
      Array.from({ length: 4 }, async (_, lane) => {
        const writer = lane % 2 ? peer : store;
        for (let i = 0; i < 8; i++) {
          const key = { resource, namespace: 'ns', name: `l${lane}-${i}` };
          const made = await writer.create(key, thing(key));
          if (i % 2) await writer.update(key, thing(key, '2'), made.rv);
        }
      }),
    );
    const end = await peer.currentRv();
    assert.equal(await cache.waitFor(end, 5000), true);

    const log = await changesAfter(peer, start);
    const seen = recorder.events.filter((e) => e.rv > start);
    assert.deepEqual(
      seen.map((e) => [e.rv, e.type, e.name, e.object]),
      log.map((c) => [c.rv, c.type, c.name, c.object]),
    );
    assert.equal(cache.list(resource).length, 32);
    assert.equal(cache.objectCounts().get(resource), 32);
  });

  it('lists and pages a resource as it was at each revision since it started', async () => {
    const { store, cache } = openCache();
    await cache.start();
    const resource = freshResource();
    const key = (namespace: string, name: string) => ({ resource, namespace, name });
    const a1 = await store.create(key('ns1', 'a'), thing(key('ns1', 'a'), '1'));
    const b = await store.create(key('ns2', 'b'), thing(key('ns2', 'b')));
    const c = await store.create(key('ns1', 'c'), thing(key('ns1', 'c')));
    const a2 = await store.update(key('ns1', 'a'), thing(key('ns1', 'a'), '2'), a1.rv);
    const bGone = await store.delete(key('ns2', 'b'), b.rv);
    const d = await store.create(key('ns1', 'd'), thing(key('ns1', 'd')));
    const start = a1.rv - 1;
    assert.ok(cache.oldestExactRv <= start);

    // the expected state at each revision, replayed from the store's change log
    const log = await changesAfter(store, start);
    const state = new Map<string, KubeObject>();
    for (const change of log) {
      if (change.resource !== resource) continue;
      if (change.type === 'DELETED') state.delete(objectKey(change.namespace, change.name));
      else state.set(objectKey(change.namespace, change.name), change.object);
      const at = [...state].sort(([x], [y]) => (x < y ? -1 : 1)).map(([, o]) => o);
      assert.deepEqual(shown(cache.listAt(resource, undefined, change.rv)), shown(at), `at ${change.rv}`);
      for (const ns of ['ns1', 'ns2'])
        assert.deepEqual(
          shown(cache.listAt(resource, ns, change.rv)),
          shown(at.filter((o) => o.metadata.namespace === ns)),
          `${ns} at ${change.rv}`,
        );
    }
    assert.deepEqual(shown(cache.listAt(resource, undefined, b.rv)), [`ns1/a@${a1.rv} 1`, `ns2/b@${b.rv} 1`]);
    assert.deepEqual(cache.listAt(resource, undefined, start), []);

    // at a2: b is gone from the current objects, so the second page comes from history
    const all = () => true;
    const first = cache.page(resource, undefined, a2.rv, '', 2, all);
    assert.deepEqual(shown(first.items), [`ns1/a@${a2.rv} 2`, `ns1/c@${c.rv} 1`]);
    assert.deepEqual([first.more, first.remaining], [true, 1]);
    const second = cache.page(resource, undefined, a2.rv, first.last, 2, all);
    assert.deepEqual(shown(second.items), [`ns2/b@${b.rv} 1`]);
    assert.equal(second.more, false);
    assert.equal(second.remaining, 0);

    // at the newest revision d and c follow a; b is gone
    const now = cache.page(resource, undefined, d.rv, '', 1, all);
    assert.deepEqual(shown(now.items), [`ns1/a@${a2.rv} 2`]);
    assert.deepEqual([now.more, now.remaining], [true, 2]);
    const selected = cache.page(resource, 'ns1', d.rv, '', 10, (o) => (o.data as { v: string }).v === '2');
    assert.deepEqual(shown(selected.items), [`ns1/a@${a2.rv} 2`]);
    assert.ok(bGone.rv < d.rv);
  });

  it('trims history past the retention window; the current objects stay', async () => {
    const { store, cache } = openCache({ retentionMs: 500, pollMs: 20 });
    await cache.start();
    const resource = freshResource();
    const key = { resource, namespace: 'ns', name: 'a' };
    const a1 = await store.create(key, thing(key, '1'));
    const a2 = await store.update(key, thing(key, '2'), a1.rv);
    assert.equal(cache.eventsAfter(a1.rv - 1).length, 2);

    await until('history trimmed', () => cache.oldestRv >= a2.rv);
    assert.equal(cache.oldestRv, a2.rv);
    assert.equal(cache.oldestExactRv, a2.rv);
    assert.deepEqual(cache.eventsAfter(cache.oldestRv), []);
    assert.deepEqual(cache.get(resource, 'ns', 'a'), a2.object);
    assert.deepEqual(shown(cache.listAt(resource, undefined, cache.rv)), [`ns/a@${a2.rv} 2`]);
    const a3 = await store.update(key, thing(key, '3'), a2.rv);
    assert.deepEqual(
      cache.eventsAfter(cache.oldestRv).map((e) => e.rv),
      [a3.rv],
    );
  });

  it('keeps corrupt rows apart, at start and in the feed, and forgets them on a delete', async () => {
    const resource = freshResource();
    const [a, b, c] = ['a', 'b', 'c'].map((name) => ({ resource, namespace: 'ns', name }));
    const a1 = await peer.create(a, thing(a));
    const b1 = await peer.create(b, thing(b));
    await peer.create(c, thing(c));
    const sql = pools[0];
    // behind the server's back: a's current body becomes a JSON string
    await sql`UPDATE changes SET body = to_jsonb('x'::text) WHERE rv = ${a1.rv}`;

    const { store, cache } = openCache();
    const recorder = new Recorder();
    await cache.start();
    cache.addListener(recorder);
    assert.equal(cache.get(resource, 'ns', 'a'), undefined);
    assert.match(cache.corruptAt(resource, 'ns', 'a')!.message, /Key: \/things\d+\/ns\/a,/);
    assert.deepEqual(
      cache.list(resource).map((o) => o.metadata.name),
      ['b', 'c'],
    );

    // a new change-log row with an unreadable body (another writer's, by SQL): b is gone for watchers
    const [{ rv }] = await sql`
      WITH r AS (UPDATE revision SET rv = rv + 1 WHERE id = 1 RETURNING rv),
        o AS (UPDATE objects SET rv = (SELECT rv FROM r)
          WHERE resource = ${resource} AND namespace = 'ns' AND name = 'b' RETURNING 1)
      INSERT INTO changes (rv, resource, namespace, name, type, body)
      SELECT rv, ${resource}, 'ns', 'b', 2, '[1]'::jsonb FROM r RETURNING rv`;
    cache.kick();
    await until('b corrupt', () => cache.corruptAt(resource, 'ns', 'b') !== undefined);
    const gone = recorder.of(resource).at(-1)!;
    assert.deepEqual([gone.type, gone.name, gone.rv], ['DELETED', 'b', Number(rv)]);
    assert.equal(gone.object.metadata.resourceVersion, String(rv));
    assert.deepEqual(gone.prev, b1.object);
    assert.deepEqual(
      cache.corruptIn(resource, 'ns').map((e) => e.key.name),
      ['a', 'b'],
    );
    assert.deepEqual(cache.corruptIn(resource, 'other'), []);

    // the unsafe delete's tombstone: the key is readable again (absent), watchers hear DELETED
    const tombstone = { apiVersion: 'v1', kind: 'Thing', metadata: { name: 'a', namespace: 'ns' } };
    const removed = await store.delete(a, a1.rv, tombstone);
    assert.equal(cache.corruptAt(resource, 'ns', 'a'), undefined);
    const deleted = recorder.of(resource).at(-1)!;
    assert.deepEqual([deleted.type, deleted.name, deleted.rv], ['DELETED', 'a', removed.rv]);
    assert.deepEqual(deleted.object, {
      ...tombstone,
      metadata: { ...tombstone.metadata, resourceVersion: String(removed.rv) },
    });
    // its change-log row holds the tombstone, not the unreadable body
    const [row] = await sql`SELECT body FROM changes WHERE rv = ${removed.rv}`;
    assert.deepEqual(row.body, tombstone);
  });

  it('stops: its listeners are closed and later commits are not applied', async () => {
    const { store, cache } = openCache();
    await cache.start();
    const recorder = new Recorder();
    cache.addListener(recorder);
    await cache.stop();
    assert.equal(recorder.closed, true);
    const rv = cache.rv;
    const key = { resource: freshResource(), namespace: 'ns', name: 'late' };
    await store.create(key, thing(key));
    assert.equal(cache.rv, rv);
    assert.equal(cache.get(key.resource, 'ns', 'late'), undefined);
  });

  // last: it prunes the shared change log
  it("after the store pruned its history, starts its history where the store's begins", async () => {
    const retentionMs = 1500;
    const resource = freshResource();
    const key = { resource, namespace: 'ns', name: 'p' };
    const p1 = await peer.create(key, thing(key, '1'));
    const p2 = await peer.update(key, thing(key, '2'), p1.rv);
    await new Promise((r) => setTimeout(r, retentionMs + 200));
    const q = await peer.create({ ...key, name: 'q' }, thing({ ...key, name: 'q' }));
    const p3 = await peer.update(key, thing(key, '3'), p2.rv);
    assert.ok((await peer.pruneChanges(retentionMs)) >= 2, 'p1 and p2 are pruned');

    const { cache } = openCache({ retentionMs });
    await cache.start();
    assert.equal(cache.oldestRv, q.rv - 1);
    assert.equal(cache.oldestExactRv, p3.rv);
    assert.deepEqual(
      cache.eventsAfter(cache.oldestRv).map((e) => [e.type, e.name, e.rv]),
      [
        ['ADDED', 'q', q.rv],
        ['MODIFIED', 'p', p3.rv],
      ],
    );
    assert.deepEqual(shown(cache.list(resource)), [`ns/p@${p3.rv} 3`, `ns/q@${q.rv} 1`]);
  });
});
