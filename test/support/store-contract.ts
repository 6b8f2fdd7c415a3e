/**
 * What every Store implementation must do (modules/storage/store.ts), as node:test cases. The watch cache and
 * the generic store rely on each of these; an adapter passes them all or is not a Store.
 *
 * Each `describe` opens a store of its own on empty storage; tests inside one share it and keep apart by
 * writing under resources of their own, but those that read the whole change log or snapshot assume no other
 * writer.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../modules/api/index.js';
import {
  AlreadyExistsError,
  ConflictError,
  NotFoundError,
  RequiredObjectDeletingError,
  RequiredObjectMissingError,
  type Change,
  type ListResult,
  type LocalCommit,
  type ObjectKey,
  type Store,
  type Stored,
} from '../../modules/storage/index.js';

export interface OpenedStore {
  store: Store;
  /** another replica's store over the same storage (its own connections, its own write batches), if any */
  peer?: Store;
  close(): Promise<void>;
}

let resources = 0;
/** a resource no other test writes (any string works: storage knows no kind) */
const freshResource = () => `contract.example.com/things${++resources}`;

const keyOf = (resource: string, name: string, namespace = 'ns'): ObjectKey => ({
  resource,
  namespace,
  name,
});

function objectFor(key: ObjectKey, data: Record<string, string> = {}, deleting = false): KubeObject {
  const metadata: KubeObject['metadata'] = { name: key.name, uid: randomUUID() };
  if (key.namespace) metadata.namespace = key.namespace;
  if (deleting) metadata.deletionTimestamp = '2026-01-01T00:00:00Z';
  return { apiVersion: 'example.com/v1', kind: 'Thing', metadata, data };
}

type ErrorClass = new (...args: never[]) => Error & { key: ObjectKey };

async function rejectsWith(write: Promise<unknown>, type: ErrorClass, key: ObjectKey): Promise<void> {
  await assert.rejects(write, (error: unknown) => {
    assert.ok(error instanceof type, `expected ${type.name}, got ${String(error)}`);
    assert.deepEqual(error.key, key);
    return true;
  });
}

/** every change after `afterRv`, paged */
async function changesAfter(store: Store, afterRv: number): Promise<Change[]> {
  const all: Change[] = [];
  for (let rv = afterRv; ;) {
    const page = await store.changes(rv, 100);
    all.push(...page.changes);
    if (page.changes.length === 0) return all;
    rv = page.rv;
  }
}

async function until(what: string, done: () => boolean | Promise<boolean>, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const names = (list: ListResult) =>
  list.items.map((s) => `${s.object.metadata.namespace ?? ''}/${s.object.metadata.name}`);

export function storeContract(name: string, open: () => Promise<OpenedStore>): void {
  /** a describe whose tests share one freshly opened store */
  function withStore(title: string, body: (opened: () => OpenedStore) => void): void {
    describe(`${name}: ${title}`, () => {
      let opened: OpenedStore;
      before(async () => {
        opened = await open();
      });
      after(() => opened.close());
      body(() => opened);
    });
  }

  withStore('single writes', (opened) => {
    it('ping resolves while the backend answers (readiness asks it)', async () => {
      await opened().store.ping();
    });

    it('create stores the object at a new revision; get reads it back', async () => {
      const { store } = opened();
      const key = keyOf(freshResource(), 'a');
      const before = await store.currentRv();
      const created = await store.create(key, objectFor(key, { v: '1' }));
      assert.ok(created.rv > before, `${created.rv} > ${before}`);
      assert.equal(created.object.metadata.resourceVersion, String(created.rv));
      assert.equal(await store.currentRv(), created.rv);
      assert.deepEqual(await store.get(key), created);
    });

    it('get tells keys apart by resource, namespace and name', async () => {
      const { store } = opened();
      const resource = freshResource();
      const key = keyOf(resource, 'a');
      await store.create(key, objectFor(key));
      assert.equal(await store.get(keyOf(resource, 'a', 'other')), undefined);
      assert.equal(await store.get(keyOf(resource, 'a', '')), undefined);
      assert.equal(await store.get(keyOf(freshResource(), 'a')), undefined);
      assert.equal(await store.get(keyOf(resource, 'b')), undefined);
    });

    it('create of a key that exists fails with AlreadyExists and changes nothing', async () => {
      const { store } = opened();
      const key = keyOf(freshResource(), 'a');
      const first = await store.create(key, objectFor(key, { v: '1' }));
      await rejectsWith(store.create(key, objectFor(key, { v: '2' })), AlreadyExistsError, key);
      assert.deepEqual(await store.get(key), first);
    });

    it('update replaces the object only at the revision the writer expects', async () => {
      const { store } = opened();
      const key = keyOf(freshResource(), 'a');
      const created = await store.create(key, objectFor(key, { v: '1' }));
      const updated = await store.update(key, objectFor(key, { v: '2' }), created.rv);
      assert.ok(updated.rv > created.rv);
      assert.equal(updated.object.metadata.resourceVersion, String(updated.rv));
      assert.deepEqual(await store.get(key), updated);
      // the revision it was read at is gone: someone else's update came in between
      await rejectsWith(store.update(key, objectFor(key, { v: '3' }), created.rv), ConflictError, key);
      assert.deepEqual(await store.get(key), updated);
      const absent = keyOf(key.resource, 'absent');
      await rejectsWith(store.update(absent, objectFor(absent), updated.rv), NotFoundError, absent);
      assert.equal(await store.get(absent), undefined);
    });

    it('delete removes the object at its expected revision and returns its last state', async () => {
      const { store } = opened();
      const key = keyOf(freshResource(), 'a');
      const created = await store.create(key, objectFor(key, { v: '1' }));
      const updated = await store.update(key, objectFor(key, { v: '2' }), created.rv);
      await rejectsWith(store.delete(key, created.rv), ConflictError, key);
      assert.deepEqual(await store.get(key), updated);
      const deleted = await store.delete(key, updated.rv);
      assert.ok(deleted.rv > updated.rv);
      assert.equal(deleted.object.metadata.resourceVersion, String(deleted.rv));
      assert.deepEqual(deleted.object.data, { v: '2' });
      assert.equal(deleted.object.metadata.uid, updated.object.metadata.uid);
      assert.equal(await store.get(key), undefined);
      await rejectsWith(store.delete(key, deleted.rv), NotFoundError, key);
      // the key is free again
      const again = await store.create(key, objectFor(key, { v: '3' }));
      assert.ok(again.rv > deleted.rv);
    });

    it('create with `requires` commits only while the required object exists and is not being deleted', async () => {
      const { store } = opened();
      const resource = freshResource();
      // any object may be required: cluster-scoped or namespaced, of any resource
      const owner = keyOf(freshResource(), 'owner', '');
      const child = (n: string) => keyOf(resource, n);
      const create = (key: ObjectKey, requires: ObjectKey) => store.create(key, objectFor(key), { requires });

      await rejectsWith(create(child('c1'), owner), RequiredObjectMissingError, owner);
      assert.equal(await store.get(child('c1')), undefined);

      const made = await store.create(owner, objectFor(owner));
      const c1 = await create(child('c1'), owner);
      assert.deepEqual(await store.get(child('c1')), c1);
      // a failing create whose required object is fine fails for its own reason
      await rejectsWith(create(child('c1'), owner), AlreadyExistsError, child('c1'));

      const deleting = await store.update(owner, objectFor(owner, {}, true), made.rv);
      await rejectsWith(create(child('c2'), owner), RequiredObjectDeletingError, owner);
      assert.equal(await store.get(child('c2')), undefined);

      await store.delete(owner, deleting.rv);
      await rejectsWith(create(child('c3'), owner), RequiredObjectMissingError, owner);
      assert.equal(await store.get(child('c3')), undefined);

      // every part of the required key counts
      const peerKey = keyOf(resource, 'peer', 'ns');
      await store.create(peerKey, objectFor(peerKey));
      await create(child('c4'), peerKey);
      for (const missing of [
        keyOf(resource, 'peer', 'elsewhere'),
        keyOf(freshResource(), 'peer', 'ns'),
        keyOf(resource, 'Peer', 'ns'),
      ])
        await rejectsWith(create(child('c5'), missing), RequiredObjectMissingError, missing);
    });
  });

  withStore('revisions, lists and the change log', (opened) => {
    it('revisions increase strictly in commit order, one per change, for sequential and concurrent writes', async () => {
      const { store } = opened();
      const resource = freshResource();
      const start = await store.currentRv();
      let last = start;
      for (let i = 0; i < 10; i++) {
        const key = keyOf(resource, `seq${i}`);
        const { rv } = await store.create(key, objectFor(key));
        assert.ok(rv > last, `${rv} > ${last}`);
        last = rv;
      }
      const concurrent = await Promise.all(
        Array.from({ length: 40 }, (_, i) => {
          const key = keyOf(resource, `par${i}`);
          return store.create(key, objectFor(key));
        }),
      );
      const rvs = concurrent.map((s) => s.rv);
      assert.equal(new Set(rvs).size, rvs.length, 'distinct revisions');
      assert.ok(Math.min(...rvs) > last);
      const log = await changesAfter(store, start);
      assert.equal(log.length, 50);
      for (let i = 1; i < log.length; i++) assert.ok(log[i].rv > log[i - 1].rv, 'log in revision order');
      // each write's revision is its change's
      concurrent.forEach((s, i) => {
        const change = log.find((c) => c.rv === s.rv);
        assert.equal(change?.name, `par${i}`);
      });
    });

    it('changes pages through ADDED, MODIFIED and DELETED with their objects, and says how far it reaches', async () => {
      const { store } = opened();
      const resource = freshResource();
      const [a, b, c] = ['a', 'b', 'c'].map((n) => keyOf(resource, n));
      const start = await store.currentRv();
      const a1 = await store.create(a, objectFor(a, { v: 'a1' }));
      const b1 = await store.create(b, objectFor(b, { v: 'b1' }));
      await store.update(a, objectFor(a, { v: 'a2' }), a1.rv);
      await store.delete(b, b1.rv);
      const c1 = await store.create(c, objectFor(c, { v: 'c1' }));

      const pages: { changes: Change[]; rv: number }[] = [];
      for (let after = start; ;) {
        const page = await store.changes(after, 2);
        pages.push(page);
        if (page.changes.length < 2) break;
        after = page.rv;
      }
      assert.deepEqual(
        pages.map((p) =>
          p.changes.map(
            (ch) => `${ch.type} ${ch.name} ${ch.object.data ? (ch.object.data as { v: string }).v : ''}`,
          ),
        ),
        [['ADDED a a1', 'ADDED b b1'], ['MODIFIED a a2', 'DELETED b b1'], ['ADDED c c1']],
      );
      for (const page of pages) {
        if (page.changes.length === 2)
          assert.equal(page.rv, page.changes[1].rv, 'a full page reaches its last change');
        for (const ch of page.changes) {
          assert.equal(ch.object.metadata.resourceVersion, String(ch.rv));
          assert.deepEqual([ch.resource, ch.namespace], [resource, 'ns']);
        }
      }
      assert.equal(pages.at(-1)!.rv, c1.rv, 'the last page reaches the newest revision');
      assert.deepEqual(await store.changes(c1.rv, 10), { changes: [], rv: c1.rv });

      // a failed write may take a revision without a change: reach passes it, or a reader would wait forever
      await assert.rejects(store.create(c, objectFor(c)), AlreadyExistsError);
      const current = await store.currentRv();
      assert.deepEqual(await store.changes(c1.rv, 10), { changes: [], rv: current });
    });

    it('list returns a resource (in one namespace when given) in key order, at the current revision', async () => {
      const { store } = opened();
      const resource = freshResource();
      const keys = [keyOf(resource, 'b', 'ns1'), keyOf(resource, 'a', 'ns2'), keyOf(resource, 'a', 'ns1')];
      const stored = new Map<string, Stored>();
      for (const key of keys)
        stored.set(`${key.namespace}/${key.name}`, await store.create(key, objectFor(key)));
      const elsewhere = keyOf(freshResource(), 'a', 'ns1');
      await store.create(elsewhere, objectFor(elsewhere));
      const current = await store.currentRv();

      const all = await store.list(resource);
      assert.equal(all.rv, current);
      assert.deepEqual(names(all), ['ns1/a', 'ns1/b', 'ns2/a']);
      for (const item of all.items)
        assert.deepEqual(item, stored.get(`${item.object.metadata.namespace}/${item.object.metadata.name}`));
      assert.deepEqual(names(await store.list(resource, 'ns1')), ['ns1/a', 'ns1/b']);
      assert.deepEqual(await store.list(resource, 'nowhere'), { rv: current, items: [] });
      assert.deepEqual(await store.list(freshResource()), { rv: current, items: [] });
    });

    it('list reads one snapshot: each result is the state at its rv while writes go on', async () => {
      const { store, peer } = opened();
      const resource = freshResource();
      for (let i = 0; i < 6; i++) {
        const key = keyOf(resource, `o${i}`);
        await store.create(key, objectFor(key));
      }
      const first = await store.list(resource);
      let writing = true;
      const lists: ListResult[] = [];
      const reading = (async () => {
        while (writing) lists.push(await store.list(resource));
      })();
      // three lanes on names of their own, each creating, updating and deleting in turn
      const writers = [store, peer ?? store, store].map(async (writer, lane) => {
        const held = new Map<string, number>();
        for (let n = 0; n < 30; n++) {
          const key = keyOf(resource, `o${lane * 2 + (n % 2)}`);
          const rv = held.get(key.name) ?? (await writer.get(key))?.rv;
          if (rv === undefined) held.set(key.name, (await writer.create(key, objectFor(key))).rv);
          else if (n % 3 === 0) {
            await writer.delete(key, rv);
            held.delete(key.name);
          } else held.set(key.name, (await writer.update(key, objectFor(key, { n: String(n) }), rv)).rv);
        }
      });
      await Promise.all(writers);
      writing = false;
      await reading;
      lists.push(await store.list(resource));

      const log = await changesAfter(store, first.rv);
      let previous = first.rv;
      for (const list of lists) {
        assert.ok(list.rv >= previous, 'a later read is not older');
        previous = list.rv;
        const state = new Map(first.items.map((s) => [s.object.metadata.name!, s.rv]));
        for (const ch of log) {
          if (ch.rv > list.rv || ch.resource !== resource) continue;
          if (ch.type === 'DELETED') state.delete(ch.name);
          else state.set(ch.name, ch.rv);
        }
        assert.deepEqual(
          list.items.map((s) => [s.object.metadata.name, s.rv]),
          [...state].sort(([x], [y]) => (x < y ? -1 : 1)),
          `list at ${list.rv}`,
        );
      }
    });

    it('snapshot holds every current object of every resource, at the current revision', async () => {
      const { store } = opened();
      const [r1, r2] = [freshResource(), freshResource()];
      const a = await store.create(keyOf(r1, 'a'), objectFor(keyOf(r1, 'a')));
      await store.create(keyOf(r2, 'b', ''), objectFor(keyOf(r2, 'b', '')));
      await store.delete(keyOf(r1, 'a'), a.rv);
      const x = await store.create(keyOf(r1, 'x', 'n'), objectFor(keyOf(r1, 'x', 'n')));
      const snapshot = await store.snapshot();
      assert.equal(snapshot.rv, await store.currentRv());
      for (const item of snapshot.items) {
        const { resource, namespace, name, rv, object } = item;
        assert.deepEqual(await store.get({ resource, namespace, name }), { rv, object });
      }
      const ours = snapshot.items.filter((i) => i.resource === r1 || i.resource === r2);
      assert.deepEqual(ours.map((i) => `${i.resource} ${i.namespace}/${i.name}`).sort(), [
        `${r1} n/x`,
        `${r2} /b`,
      ]);
      assert.deepEqual(ours.find((i) => i.name === 'x')?.object, x.object);
      // every object any list shows is in the snapshot
      const listed = (await Promise.all([r1, r2].map((r) => store.list(r)))).flatMap((l) => l.items);
      assert.equal(listed.length, ours.length);
    });
  });

  withStore('subscribe', (opened) => {
    it("delivers this store's own commits with their changes, gap-free, and stops when unsubscribed", async (t) => {
      const { store } = opened();
      const resource = freshResource();
      const start = await store.currentRv();
      const commits: LocalCommit[] = [];
      const unsubscribe = await store.subscribe((local) => local && commits.push(local));
      t.after(() => unsubscribe());

      const keys = Array.from({ length: 12 }, (_, i) => keyOf(resource, `k${i}`));
      const created = await Promise.all(keys.map((key) => store.create(key, objectFor(key))));
      await assert.rejects(store.create(keys[0], objectFor(keys[0])), AlreadyExistsError);
      await store.update(keys[1], objectFor(keys[1], { v: '2' }), created[1].rv);
      await store.delete(keys[2], created[2].rv);
      const end = await store.currentRv();
      await until('the commits up to the current revision', () => commits.at(-1)?.rv === end);

      assert.equal(commits[0].base, start);
      for (let i = 1; i < commits.length; i++)
        assert.equal(commits[i].base, commits[i - 1].rv, 'no gap between commits');
      for (const commit of commits)
        for (const ch of commit.changes)
          assert.ok(ch.rv > commit.base && ch.rv <= commit.rv, `${ch.rv} in its commit`);
      const delivered = commits.flatMap((c) => c.changes);
      const logged = await changesAfter(store, start);
      assert.deepEqual(
        delivered.map((c) => [c.rv, c.type, c.resource, c.namespace, c.name, c.object]),
        logged.map((c) => [c.rv, c.type, c.resource, c.namespace, c.name, c.object]),
      );

      await unsubscribe();
      const count = commits.length;
      await store.create(keyOf(resource, 'late'), objectFor(keyOf(resource, 'late')));
      await new Promise((r) => setTimeout(r, 50));
      assert.equal(commits.length, count, 'nothing after unsubscribing');
    });

    it("wakes a subscriber for another replica's commit", async (t) => {
      const { store, peer } = opened();
      if (!peer) return t.skip('no replicas');
      let hints = 0;
      const unsubscribe = await store.subscribe((local) => {
        if (!local) hints++;
      });
      t.after(() => unsubscribe());
      const key = keyOf(freshResource(), 'from-peer');
      const written = await peer.create(key, objectFor(key));
      await until('a hint', () => hints > 0);
      const { changes } = await store.changes(written.rv - 1, 10);
      assert.equal(changes[0]?.name, 'from-peer');
    });
  });

  withStore('history', (opened) => {
    const HOUR = 3_600_000;

    it('historyStart is the revision before the oldest change in the window', async () => {
      const { store } = opened();
      assert.equal(await store.historyStart(HOUR), await store.currentRv(), 'no history yet');
      const key = keyOf(freshResource(), 'a');
      const made = await store.create(key, objectFor(key));
      await store.update(key, objectFor(key), made.rv);
      const start = await store.historyStart(HOUR);
      assert.ok(start < made.rv);
      const { changes } = await store.changes(start, 1);
      assert.equal(changes[0].rv, start + 1, 'history is complete from there on');
      assert.equal(await store.historyStart(0), await store.currentRv(), 'nothing is younger than 0 ms');
    });

    it('pruneChanges drops old entries but keeps the newest and every current object', async () => {
      const { store } = opened();
      const resource = freshResource();
      const [a, b] = [keyOf(resource, 'a'), keyOf(resource, 'b')];
      let rv = (await store.create(a, objectFor(a, { v: '1' }))).rv;
      for (const v of ['2', '3']) rv = (await store.update(a, objectFor(a, { v }), rv)).rv;
      const made = await store.create(b, objectFor(b));
      const deleted = await store.delete(b, made.rv);

      const logBefore = await changesAfter(store, 0);
      assert.equal(await store.pruneChanges(HOUR), 0, 'nothing is an hour old');
      assert.deepEqual(await changesAfter(store, 0), logBefore);

      const snapshot = await store.snapshot();
      const current = await store.currentRv();
      assert.ok((await store.pruneChanges(0)) > 0);
      const logAfter = await changesAfter(store, 0);
      assert.ok(logAfter.length < logBefore.length, 'old entries are gone');
      assert.deepEqual(logAfter.at(-1), logBefore.at(-1), 'the newest entry stays');
      assert.equal(logAfter.at(-1)?.rv, deleted.rv);
      assert.deepEqual(await store.snapshot(), snapshot);
      assert.deepEqual((await store.get(a))?.object.data, { v: '3' });
      assert.deepEqual((await store.list(resource)).items, [await store.get(a)]);

      // writing goes on past the pruned history
      assert.equal(await store.currentRv(), current);
      const c = keyOf(resource, 'c');
      assert.ok((await store.create(c, objectFor(c))).rv > current);
    });
  });

  withStore('concurrent writers', (opened) => {
    it('of 16 concurrent updates at one expected revision exactly one wins', async () => {
      const { store } = opened();
      const key = keyOf(freshResource(), 'contended');
      const made = await store.create(key, objectFor(key));
      const results = await Promise.allSettled(
        Array.from({ length: 16 }, (_, i) =>
          store.update(key, objectFor(key, { writer: String(i) }), made.rv),
        ),
      );
      const won = results.filter((r): r is PromiseFulfilledResult<Stored> => r.status === 'fulfilled');
      assert.equal(won.length, 1);
      for (const r of results)
        if (r.status === 'rejected') assert.ok(r.reason instanceof ConflictError, String(r.reason));
      assert.deepEqual(await store.get(key), won[0].value);
    });

    it('writes that fail their precondition leave their batch-mates committed', async () => {
      const { store } = opened();
      const resource = freshResource();
      const contended = keyOf(resource, 'contended');
      const taken = keyOf(resource, 'taken');
      const made = await store.create(contended, objectFor(contended));
      const old = await store.create(taken, objectFor(taken));
      await store.update(taken, objectFor(taken), old.rv);
      const fresh = Array.from({ length: 16 }, (_, i) => keyOf(resource, `fresh${i}`));
      const absent = keyOf(resource, 'absent');
      const owner = keyOf(resource, 'no-owner', '');

      // all submitted in one turn: a batching store puts them in few batches
      const failing = [
        ...Array.from({ length: 16 }, () => store.update(contended, objectFor(contended), made.rv)),
        store.create(taken, objectFor(taken)),
        store.update(absent, objectFor(absent), 1),
        store.delete(taken, old.rv),
        store.create(keyOf(resource, 'orphan'), objectFor(keyOf(resource, 'orphan')), { requires: owner }),
      ].map((p) =>
        p.then(
          () => 'ok',
          (e: Error) => e.constructor.name,
        ),
      );
      const creates = fresh.map((key) => store.create(key, objectFor(key)));
      const outcomes = await Promise.all(failing);
      const made16 = await Promise.all(creates);

      assert.equal(outcomes.slice(0, 16).filter((o) => o === 'ok').length, 1);
      assert.deepEqual(outcomes.slice(16), [
        'AlreadyExistsError',
        'NotFoundError',
        'ConflictError',
        'RequiredObjectMissingError',
      ]);
      for (const [i, key] of fresh.entries()) assert.deepEqual(await store.get(key), made16[i]);
      assert.equal(await store.get(keyOf(resource, 'orphan')), undefined);
    });

    it('replicas racing on one key: one create wins, one update per revision wins, no update is lost', async (t) => {
      const { store, peer } = opened();
      if (!peer) return t.skip('no replicas');
      const resource = freshResource();
      const key = keyOf(resource, 'raced');
      const creates = await Promise.allSettled(
        [store, peer, store, peer].map((s) => s.create(key, objectFor(key))),
      );
      assert.equal(creates.filter((r) => r.status === 'fulfilled').length, 1);
      for (const r of creates)
        if (r.status === 'rejected') assert.ok(r.reason instanceof AlreadyExistsError, String(r.reason));

      // read-modify-write with retry from both replicas: every increment lands exactly once
      const counter = keyOf(resource, 'counter');
      await store.create(counter, objectFor(counter, { n: '0' }));
      const increment = async (s: Store) => {
        for (;;) {
          const current = (await s.get(counter))!;
          const n = Number((current.object.data as { n: string }).n) + 1;
          try {
            return await s.update(counter, objectFor(counter, { n: String(n) }), current.rv);
          } catch (error) {
            if (!(error instanceof ConflictError)) throw error;
          }
        }
      };
      await Promise.all(
        Array.from({ length: 8 }, async (_, w) => {
          for (let i = 0; i < 5; i++) await increment(w % 2 ? peer : store);
        }),
      );
      assert.deepEqual((await store.get(counter))?.object.data, { n: '40' });
    });
  });
}
