/**
 * Completeness across replicas: two servers on one PostgreSQL, 8 writers × 1,000 changes spread over both,
 * 3 watchers on each replica started from the same revision. Every watcher must see every change exactly once,
 * in strictly increasing resourceVersion order, and its final state must equal a fresh list.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useServer } from './support/use-server.js';
import { openWatch, type WatchStream } from './support/watch-client.js';

const WRITERS = 8;
const CHANGES = 1000;
const NS = 'default';
const base = `/api/v1/namespaces/${NS}/configmaps`;
/**
 * Not the writers': every namespace holds kube-root-ca.crt, which the replicas (each with its own generated
 * CA) publish in turn.
 */
const ours = (o: { metadata: { name: string } }) => o.metadata.name !== 'kube-root-ca.crt';

describe('watch completeness across two replicas', () => {
  const { servers } = useServer({ replicas: 2 });

  it(`${WRITERS} writers × ${CHANGES} changes; 3 watchers per replica see all of them in order`, async () => {
    const start = (await servers[0].request('GET', base)).json.metadata.resourceVersion;
    const watchers: WatchStream[] = [];
    for (const s of servers)
      for (let i = 0; i < 3; i++)
        watchers.push(await openWatch(s, `/api/v1/configmaps?watch=1&resourceVersion=${start}`));

    let writes = 0;
    await Promise.all(
      Array.from({ length: WRITERS }, async (_, w) => {
        const s = servers[w % 2];
        const name = (n: number) => `w${w}-${n % 4}`;
        const current = new Map<string, any>();
        for (let n = 0; n < CHANGES; n++) {
          const key = name(n);
          const obj = current.get(key);
          let r;
          if (!obj) {
            r = await s.request('POST', base, {
              body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: key }, data: { n: String(n) } },
            });
            assert.equal(r.status, 201, r.text);
            current.set(key, r.json);
          } else if (n % 5 === 0) {
            r = await s.request('DELETE', `${base}/${key}`);
            assert.equal(r.status, 200, r.text);
            current.delete(key);
          } else {
            r = await s.request('PUT', `${base}/${key}`, { body: { ...obj, data: { n: String(n) } } });
            assert.equal(r.status, 200, r.text);
            current.set(key, r.json);
          }
          writes++;
        }
      }),
    );
    assert.equal(writes, WRITERS * CHANGES);

    const fresh = (await servers[1].request('GET', base)).json;
    const expected = new Map<string, string>(
      fresh.items.filter(ours).map((i: any) => [i.metadata.name, i.metadata.resourceVersion]),
    );
    for (const [index, w] of watchers.entries()) {
      const events = [];
      while (events.length < WRITERS * CHANGES) {
        const e = await w.next(20_000);
        if (ours(e.object)) events.push(e);
      }
      w.close();
      let last = Number(start);
      const state = new Map<string, string>();
      for (const e of events) {
        const rv = Number(e.object.metadata.resourceVersion);
        assert.ok(rv > last, `watcher ${index}: ${rv} after ${last}`);
        last = rv;
        if (e.type === 'DELETED') state.delete(e.object.metadata.name);
        else state.set(e.object.metadata.name, e.object.metadata.resourceVersion);
      }
      assert.equal(
        w.events.filter((e) => ours(e.object)).length,
        WRITERS * CHANGES,
        `watcher ${index} got no extra events`,
      );
      assert.deepEqual(state, expected, `watcher ${index} ends where a fresh list is`);
    }
  });
});
