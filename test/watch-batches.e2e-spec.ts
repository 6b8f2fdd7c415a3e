/**
 * A batch of changes (one commit of concurrent writes, one page of the change log) reaches each watcher as one
 * write. Watchers with different selectors get different subsets of the same batch: each must still get its
 * own events exactly once, in order, over HTTP/1.1 and over h2, on the writing replica and on another.
 */
import assert from 'node:assert/strict';
import { connect, type ClientHttp2Session } from 'node:http2';
import { describe, it } from 'node:test';
import { type TestServer } from './support/server.js';
import { useServer } from './support/use-server.js';
import { openWatch, type WatchStream } from './support/watch-client.js';

const base = '/api/v1/namespaces/default/configmaps';
const WRITERS = 8;
const PER_WRITER = 40;
/** overlapping subsets: a batch may give two watchers the same number of events, starting alike, then not */
const SELECTORS = ['', 'tier%3Dweb', 'zone%3Da'];
const labelsOf = (w: number, i: number) => ({
  tier: (w + i) % 2 ? 'web' : 'db',
  zone: (w + Math.floor(i / 2)) % 2 ? 'a' : 'b',
});

/** the ConfigMap every namespace holds (the root-ca-cert-publisher's): not one of this test's writes */
const ROOT_CA = 'kube-root-ca.crt';

/** an h2 watch: its events as they arrive, and how many DATA frames carried them */
interface H2Watch {
  names: string[];
  rvs: number[];
  frames: number;
  close(): void;
}

function h2Watch(session: ClientHttp2Session, s: TestServer, path: string): Promise<H2Watch> {
  return new Promise((resolve, reject) => {
    const stream = session.request({ ':path': path, authorization: `Bearer ${s.token}` });
    const w: H2Watch = { names: [], rvs: [], frames: 0, close: () => stream.close() };
    let text = '';
    stream.once('response', (h) =>
      h[':status'] === 200 ? resolve(w) : reject(new Error(`status ${h[':status']}`)),
    );
    stream.on('data', (d: Buffer) => {
      w.frames++;
      text += d.toString();
      const lines = text.split('\n');
      text = lines.pop()!;
      for (const line of lines) {
        const e = JSON.parse(line);
        if (e.object.metadata.name === ROOT_CA) continue;
        w.names.push(e.object.metadata.name);
        w.rvs.push(Number(e.object.metadata.resourceVersion));
      }
    });
    stream.once('error', reject);
  });
}

describe('watch batches', () => {
  const sessions: ClientHttp2Session[] = [];
  const { servers } = useServer({
    replicas: 2,
    beforeStop: () => {
      for (const c of sessions) c.close();
    },
  });

  it('watchers with different selectors each get their events of shared batches once, in order', async () => {
    const rv = (await servers[0].request('GET', base)).json.metadata.resourceVersion;
    const http1: { selector: string; w: WatchStream }[] = [];
    const h2: { selector: string; w: H2Watch }[] = [];
    for (const s of servers) {
      const session = connect(s.url, { ca: s.ca });
      sessions.push(session);
      // several watchers per selector, interleaved, so consecutive flushes alternate between subsets
      for (let i = 0; i < 3; i++)
        for (const selector of SELECTORS) {
          const path = `${base}?watch=1&resourceVersion=${rv}&labelSelector=${selector}`;
          http1.push({ selector, w: await openWatch(s, path) });
          h2.push({ selector, w: await h2Watch(session, s, path) });
        }
    }
    // concurrent writers on the first replica: their creates commit together, several per batch
    const names: string[] = [];
    await Promise.all(
      Array.from({ length: WRITERS }, async (_, w) => {
        for (let i = 0; i < PER_WRITER; i++) {
          const name = `b-${w}-${i}`;
          const r = await servers[0].request('POST', base, {
            body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: labelsOf(w, i) } },
          });
          assert.equal(r.status, 201, r.text);
          names.push(name);
        }
      }),
    );
    const selected = (selector: string, name: string) => {
      if (!selector) return true;
      const [, w, i] = name.split('-').map(Number);
      const [key, value] = selector.split('%3D');
      return labelsOf(w, i)[key as 'tier' | 'zone'] === value;
    };
    const expected = (selector: string) => new Set(names.filter((n) => selected(selector, n)));

    for (const { selector, w } of http1) {
      const want = expected(selector);
      const got: { name: string; rv: number }[] = [];
      while (got.length < want.size) {
        const e = await w.next(20_000);
        if (e.object.metadata.name === ROOT_CA) continue;
        got.push({ name: e.object.metadata.name, rv: Number(e.object.metadata.resourceVersion) });
      }
      w.close();
      assert.deepEqual(new Set(got.map((g) => g.name)), want, `HTTP/1.1 ${selector}`);
      assert.equal(got.length, want.size, `HTTP/1.1 ${selector}: duplicates`);
      for (let i = 1; i < got.length; i++)
        assert.ok(got[i].rv > got[i - 1].rv, `HTTP/1.1 ${selector}: order`);
    }
    for (const { selector, w } of h2) {
      const want = expected(selector);
      for (let i = 0; i < 200 && w.names.length < want.size; i++)
        await new Promise((r) => setTimeout(r, 100));
      w.close();
      assert.deepEqual(new Set(w.names), want, `h2 ${selector}`);
      assert.equal(w.names.length, want.size, `h2 ${selector}: duplicates`);
      for (let i = 1; i < w.rvs.length; i++) assert.ok(w.rvs[i] > w.rvs[i - 1], `h2 ${selector}: order`);
    }
    // batches went out as one write each: fewer DATA frames than events on the unfiltered watches
    for (const { selector, w } of h2.filter((x) => x.selector === ''))
      assert.ok(w.frames < w.names.length, `${w.frames} frames for ${w.names.length} events (${selector})`);
  });
});
