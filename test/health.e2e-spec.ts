/** /healthz, /livez, /readyz: bodies, exclusions, single checks, PostgreSQL down/up, the SIGTERM sequence. */
import assert from 'node:assert/strict';
import { chmod, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { freePort, startEmbeddedPostgres, type RunningPostgres } from '../modules/storage/index.js';
import { testDatabase } from './support/database.js';
import { kubectl } from './support/kubectl.js';
import { startServer, type TestServer } from './support/server.js';
import { openWatch } from './support/watch-client.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('health endpoints', () => {
  it('answer without credentials, verbose and exclude forms, single checks', async () => {
    const db = await testDatabase();
    const s = await startServer({ databaseUrl: db.url });
    try {
      for (const p of ['/healthz', '/livez', '/readyz']) {
        const r = await s.request('GET', p, { token: null });
        assert.equal(r.status, 200, p);
        assert.equal(r.text, 'ok');
      }
      const verbose = await s.request('GET', '/readyz?verbose', { token: null });
      assert.equal(
        verbose.text,
        '[+]ping ok\n[+]log ok\n[+]postgres ok\n[+]watch-cache-synced ok\n[+]poststarthook/builtin-namespaces ok\n[+]poststarthook/rbac/bootstrap-roles ok\n[+]shutdown ok\nreadyz check passed\n',
      );
      const livez = await s.request('GET', '/livez?verbose&exclude=log', { token: null });
      assert.equal(
        livez.text,
        '[+]ping ok\n[+]log excluded: ok\n[+]poststarthook/builtin-namespaces ok\n[+]poststarthook/rbac/bootstrap-roles ok\nlivez check passed\n',
      );
      const healthz = await s.request('GET', '/healthz?verbose', { token: null });
      assert.match(healthz.text, /healthz check passed\n$/);
      // single checks are not among system:public-info-viewer's paths: anonymous may not read them (as kube)
      assert.equal((await s.request('GET', '/livez/ping', { token: null })).status, 403);
      assert.equal((await s.request('GET', '/livez/ping')).text, 'ok');
      assert.equal((await s.request('GET', '/readyz/postgres')).status, 200);
      assert.equal((await s.request('GET', '/livez/nope')).status, 404);
      const viaKubectl = await kubectl(['get', '--raw=/readyz?verbose'], { kubeconfig: s.kubeconfig });
      assert.match(viaKubectl.stdout, /readyz check passed/);
    } finally {
      await s.stop();
      await db.drop();
    }
  });
});

describe('PostgreSQL down', () => {
  let pg: RunningPostgres | undefined;
  let s: TestServer | undefined;
  after(async () => {
    await s?.stop();
    await pg?.stop();
  });

  it('fails readyz at once while PostgreSQL is stopped (livez stays ok), passes within 1 s of its return', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'pgkube-health-'));
    await chmod(dir, 0o755);
    const options = { dir: path.join(dir, 'pg'), database: 'pgkube', fsync: false, port: await freePort() };
    pg = await startEmbeddedPostgres(options);
    s = await startServer({ databaseUrl: pg.url });
    const server = s;
    const readyz = async (query = '') => {
      const started = Date.now();
      const r = await server.request('GET', `/readyz${query}`, { token: null });
      return { ...r, ms: Date.now() - started };
    };
    assert.equal((await readyz()).status, 200);
    await pg.stop();
    // the storage port's circuit is open while PostgreSQL is away: readiness fails without waiting on it
    for (let i = 0; i < 5; i++) {
      const ready = await readyz('?verbose');
      assert.equal(ready.status, 500);
      assert.match(ready.text, /\[-\]postgres failed: reason withheld\n/);
      assert.match(ready.text, /readyz check failed\n$/);
      assert.ok(ready.ms < 1000, `readyz answered after ${ready.ms} ms`);
      await sleep(100);
    }
    assert.equal((await s.request('GET', '/livez', { token: null })).status, 200);
    pg = await startEmbeddedPostgres(options);
    const back = Date.now();
    let status = 0;
    while (Date.now() < back + 5000 && status !== 200) {
      status = (await readyz()).status;
      if (status !== 200) await sleep(50);
    }
    assert.equal(status, 200);
    const after = Date.now() - back;
    assert.ok(after <= 1000, `ready ${after} ms after PostgreSQL returned`);
  });
});

describe('SIGTERM', () => {
  it('fails readyz first, keeps serving for the delay, ends watches cleanly, exits 0', async () => {
    const db = await testDatabase();
    const s = await startServer({ databaseUrl: db.url, args: ['--shutdown-delay-duration=2s'] });
    try {
      const w = await openWatch(s, '/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=0');
      const exit = s.stop();
      await new Promise((r) => setTimeout(r, 300));
      const ready = await s.request('GET', '/readyz?verbose', { token: null });
      assert.equal(ready.status, 500);
      assert.match(ready.text, /\[-\]shutdown failed: reason withheld/);
      assert.equal((await s.request('GET', '/livez', { token: null })).status, 200);
      assert.equal(
        (await s.request('GET', '/api/v1/namespaces')).status,
        200,
        'still serving during the delay',
      );
      await w.ended;
      assert.equal(await exit, 0);
    } finally {
      await db.drop();
    }
  });
});
