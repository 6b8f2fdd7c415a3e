/**
 * PostgreSQL stops and starts again under a running server: the server recovers on its own, and a client that
 * re-watches from its last resourceVersion (as informers do when a watch ends) loses no event.
 */
import assert from 'node:assert/strict';
import { chmod, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { freePort, startEmbeddedPostgres, type RunningPostgres } from '../modules/storage/index.js';
import { startServer, type TestServer } from './support/server.js';
import { openWatch, type WatchEvent } from './support/watch-client.js';

const base = '/api/v1/namespaces/default/configmaps';

async function until<T>(fn: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > deadline) assert.fail('timed out');
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('PostgreSQL restart under a running server', () => {
  let pg: RunningPostgres | undefined;
  let s: TestServer | undefined;
  after(async () => {
    await s?.stop();
    await pg?.stop();
  });

  it('recovers by itself and a re-watching client sees every change once', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'pgkube-pgrestart-'));
    await chmod(dir, 0o755);
    const port = await freePort();
    const options = { dir: path.join(dir, 'pg'), database: 'pgkube', fsync: false, port };
    pg = await startEmbeddedPostgres(options);
    s = await startServer({ databaseUrl: pg.url });
    const server = s;
    let lastRv = (await server.request('GET', base)).json.metadata.resourceVersion as string;
    const seen: WatchEvent[] = [];
    const written: string[] = [];
    let watching = true;
    // the client: watch from the last revision seen; when the stream ends, watch again from there
    const client = (async () => {
      while (watching) {
        const w = await openWatch(server, `${base}?watch=1&resourceVersion=${lastRv}`).catch(() => undefined);
        if (!w || w.status !== 200) {
          await new Promise((r) => setTimeout(r, 200));
          continue;
        }
        while (watching) {
          const e: WatchEvent | undefined = await w.next(300).catch(() => undefined);
          if (e) {
            if (e.type === 'ERROR') assert.fail(`unexpected ERROR event ${JSON.stringify(e.object)}`);
            seen.push(e);
            lastRv = e.object.metadata.resourceVersion;
          } else if (w.finished()) break;
        }
        w.close();
      }
    })();

    const create = async (name: string) => {
      const r = await until(async () => {
        const res = await server.request('POST', base, {
          body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } },
        });
        return res.status === 201 ? res : res.status === 409 ? res : undefined;
      });
      if (r.status === 201) written.push(name);
    };
    for (let i = 0; i < 5; i++) await create(`before-${i}`);
    await pg.stop();
    const down = await server.request('GET', base);
    assert.ok(down.status >= 500 && down.status < 600, `while PostgreSQL is down: ${down.status}`);
    assert.equal(down.json.kind, 'Status');
    pg = await startEmbeddedPostgres(options);
    for (let i = 0; i < 5; i++) await create(`after-${i}`);
    await until(async () => (seen.length >= written.length ? true : undefined));
    watching = false;
    await client;

    const names = seen.filter((e) => e.type === 'ADDED').map((e) => e.object.metadata.name);
    assert.deepEqual(names, written, 'every change once, in order');
    const rvs = seen.map((e) => Number(e.object.metadata.resourceVersion));
    assert.ok(rvs.every((rv, i) => i === 0 || rv > rvs[i - 1]));
  });
});
