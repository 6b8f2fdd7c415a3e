/**
 * Backup and restore with PostgreSQL's own tools (README "Backup and restore"): pgkube runs on a PostgreSQL of
 * the machine's packages (pg_dump and pg_restore of the server's own major version); a custom-format pg_dump
 * taken while writes go on, restored with createdb + pg_restore into a new database, serves the objects as they
 * were at the dump's one snapshot with the same resourceVersions; new writes get higher resourceVersions than
 * the old server ever gave out; watches from before the restore get 410 Gone and clients relist.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CoreV1Api, KubeConfig, makeInformer, Watch, type V1ConfigMap } from '@kubernetes/client-node';
import postgres from 'postgres';
import { freePort, RESTORE_REVISION_BUMP } from '../modules/storage/index.js';
import { startDebianPostgres, type DebianPostgres } from './support/debian-postgres.js';
import { eventually } from './support/eventually.js';
import { kubectlOf } from './support/kubectl.js';
import { startServer, type TestServer } from './support/server.js';
import { openWatch } from './support/watch-client.js';

const cms = '/api/v1/namespaces/default/configmaps';
const secrets = '/api/v1/namespaces/default/secrets';
const widgets = '/apis/example.com/v1/namespaces/default/widgets';
const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: { spec: { type: 'object', properties: { n: { type: 'integer' } } } },
          },
        },
      },
    ],
  },
};
const cm = (name: string, v: string) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  data: { v },
});
const widget = (name: string, n: number) => ({
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { name },
  spec: { n },
});
const rvOf = (o: { metadata: { resourceVersion: string } }) => Number(o.metadata.resourceVersion);
/** the objects of a list by name (without the server-made kube-root-ca.crt: each server publishes its own) */
const byName = (list: { items: { metadata: { name: string } }[] }) =>
  new Map(list.items.filter((o) => o.metadata.name !== 'kube-root-ca.crt').map((o) => [o.metadata.name, o]));

describe('backup and restore with pg_dump and pg_restore', () => {
  let pg: DebianPostgres;
  let first: TestServer | undefined;
  let second: TestServer | undefined;
  let port: number;
  const work: string[] = [];

  before(async () => {
    pg = await startDebianPostgres(['pg_dump', 'pg_restore', 'createdb']);
    const made = await pg.tool('createdb', ['pgkube']);
    assert.equal(made.code, 0, made.stderr);
    port = await freePort();
    // a fixed port: the restored server takes the first one's place (same data dir: same CA and token)
    first = await startServer({ databaseUrl: pg.url('pgkube'), args: [`--secure-port=${port}`] });
  });

  after(async () => {
    await first?.stop();
    await second?.stop();
    await pg?.stop();
    for (const dir of work) await rm(dir, { recursive: true, force: true });
  });

  /** what the tests below share: the old server's view at the dump's snapshot */
  let snapshotRv = 0;
  let lastOldRv = 0;
  let watchedRv = 0;
  let listedRv = 0;
  const atSnapshot = new Map<string, Map<string, any>>();
  const during: { name: string; rv: number }[] = [];
  let informer: ReturnType<typeof makeInformer<V1ConfigMap>>;
  let informerRunning = true;

  it('a pg_dump taken under writes restores the objects of its snapshot, resourceVersions and all', async () => {
    const s = first!;
    const post = async (p: string, body: unknown) => {
      const r = await s.request('POST', p, { body });
      assert.equal(r.status, 201, r.text);
      return r.json;
    };
    assert.equal(
      (await s.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: crd }))
        .status,
      201,
    );
    await eventually(async () => (await s.request('GET', widgets)).status === 200, 'widgets served');
    for (const name of ['cm-1', 'cm-2', 'cm-3']) await post(cms, cm(name, '1'));
    const cm1 = (await s.request('GET', `${cms}/cm-1`)).json;
    assert.equal((await s.request('PUT', `${cms}/cm-1`, { body: { ...cm1, data: { v: '2' } } })).status, 200);
    assert.equal((await s.request('DELETE', `${cms}/cm-3`)).status, 200);
    await post(secrets, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 's-1' },
      data: { k: 'c2VjcmV0' },
    });
    await post(widgets, widget('w-1', 0));
    await post(widgets, widget('w-2', 7));

    // a client of the old server: a raw watch from the list's revision, and an informer
    listedRv = rvOf((await s.request('GET', cms)).json);
    const watch = await openWatch(s, `${cms}?watch=1&resourceVersion=${listedRv}`);
    const kc = new KubeConfig();
    kc.loadFromFile(s.kubeconfig);
    const api = kc.makeApiClient(CoreV1Api);
    informer = makeInformer<V1ConfigMap>(kc, cms, () =>
      api.listNamespacedConfigMap({ namespace: 'default' }),
    );
    // client-node hands connection errors to the application, which restarts the informer (its documented use)
    informer.on('error', () => {
      if (informerRunning) setTimeout(() => void informer.start().catch(() => undefined), 500);
    });
    await informer.start();

    // writes go on while pg_dump runs: creates by two writers, updates of one widget by a third
    let writing = true;
    const creator = async (w: number) => {
      for (let i = 0; writing; i++) {
        const name = `during-${w}-${i}`;
        during.push({ name, rv: rvOf(await post(cms, cm(name, String(i)))) });
      }
    };
    const updater = async () => {
      for (let n = 1; writing; n++) {
        const cur = (await s.request('GET', `${widgets}/w-1`)).json;
        const r = await s.request('PUT', `${widgets}/w-1`, { body: { ...cur, spec: { n } } });
        assert.equal(r.status, 200, r.text);
      }
    };
    const writers = [creator(1), creator(2), updater()];
    await eventually(() => during.length >= 10, 'writes under way');
    const dir = await mkdtemp(path.join(tmpdir(), 'pgkube-dump-'));
    work.push(dir);
    const file = path.join(dir, 'pgkube.dump');
    const dumped = await pg.tool('pg_dump', ['--format=custom', `--file=${file}`, 'pgkube']);
    await new Promise((r) => setTimeout(r, 300));
    writing = false;
    await Promise.all(writers);
    assert.equal(dumped.code, 0, dumped.stderr);

    const restored = await pg.tool('createdb', ['restored']);
    assert.equal(restored.code, 0, restored.stderr);
    const loaded = await pg.tool('pg_restore', ['--dbname=restored', '--no-owner', '--exit-on-error', file]);
    assert.equal(loaded.code, 0, loaded.stderr);

    // one snapshot: the revision counter covers every change, and every object has its body
    const sql = postgres(pg.url('restored'), { max: 1, onnotice: () => undefined });
    try {
      const [row] = await sql`
        SELECT (SELECT rv FROM revision WHERE id = 1) AS counter, (SELECT max(rv) FROM changes) AS newest,
          (SELECT count(*) FROM objects o WHERE NOT EXISTS (SELECT 1 FROM changes c WHERE c.rv = o.rv))::int AS bodiless`;
      snapshotRv = Number(row.counter);
      assert.ok(
        snapshotRv >= Number(row.newest),
        `counter ${row.counter} behind the change log's ${row.newest}`,
      );
      assert.equal(row.bodiless, 0);
    } finally {
      await sql.end();
    }
    // the dump cut through the writes: some made it, some came after its snapshot
    const rvs = during.map((d) => d.rv);
    assert.ok(
      rvs.some((rv) => rv <= snapshotRv) && rvs.some((rv) => rv > snapshotRv),
      `${snapshotRv}: ${rvs}`,
    );

    // the old server's own view at the snapshot's revision (its watch cache serves exact reads)
    for (const p of [cms, secrets, widgets]) {
      const r = await s.request('GET', `${p}?resourceVersion=${snapshotRv}&resourceVersionMatch=Exact`);
      assert.equal(r.status, 200, r.text);
      atSnapshot.set(p, byName(r.json));
    }
    lastOldRv = rvOf((await s.request('GET', cms)).json);
    // the watch saw changes after the snapshot: its client is ahead of what the dump holds
    for (;;) {
      const e = await watch.next(5000);
      watchedRv = rvOf(e.object);
      if (watchedRv > snapshotRv) break;
    }
    watch.close();

    // the old server goes; the restored database gets one in its place
    await s.stop();
    second = await startServer({
      databaseUrl: pg.url('restored'),
      dataDir: s.dataDir,
      args: [`--secure-port=${port}`],
    });
    assert.match(second.output(), /this database is a restore/);
    const r = second;

    for (const [p, expected] of atSnapshot) {
      const list = (await r.request('GET', p)).json;
      const got = byName(list);
      assert.deepEqual([...got.keys()].sort(), [...expected.keys()].sort(), p);
      for (const [name, object] of expected) {
        assert.deepEqual(got.get(name), object, `${p}/${name} in the list`);
        const one = await r.request('GET', `${p}/${name}`);
        assert.equal(one.status, 200, one.text);
        const { apiVersion: _a, kind: _k, ...body } = one.json;
        const { apiVersion: _b, kind: _l, ...listed } = object;
        assert.deepEqual(body, listed, `${p}/${name}`);
      }
    }
    assert.equal(atSnapshot.get(cms)!.get('cm-1').data.v, '2');
    assert.ok(!atSnapshot.get(cms)!.has('cm-3'));
    assert.equal(atSnapshot.get(secrets)!.get('s-1').data.k, 'c2VjcmV0');
    assert.ok(atSnapshot.get(widgets)!.get('w-1').spec.n >= 0);
    for (const d of during) {
      const one = await r.request('GET', `${cms}/${d.name}`);
      if (d.rv <= snapshotRv) assert.equal(rvOf(one.json), d.rv, d.name);
      else assert.equal(one.status, 404, `${d.name} (rv ${d.rv}) was written after the snapshot`);
    }
  });

  it('new writes get resourceVersions above every one the old server gave out', async () => {
    const r = second!;
    const listRv = rvOf((await r.request('GET', cms)).json);
    // the restored server jumped the counter once at start (its own controllers have written since)
    const from = snapshotRv + RESTORE_REVISION_BUMP;
    assert.match(r.output(), new RegExp(`revisions continue from ${from} \\(found ${snapshotRv}\\)`));
    assert.ok(listRv >= from && from > lastOldRv, `${listRv} ${from} ${lastOldRv}`);
    const created = await r.request('POST', cms, { body: cm('after-restore', '1') });
    assert.equal(created.status, 201, created.text);
    assert.ok(rvOf(created.json) > listRv);
    const w1 = (await r.request('GET', `${widgets}/w-1`)).json;
    const updated = await r.request('PUT', `${widgets}/w-1`, { body: { ...w1, spec: { n: 1000 } } });
    assert.equal(updated.status, 200, updated.text);
    assert.ok(rvOf(updated.json) > rvOf(created.json));
    assert.ok(rvOf((await r.request('GET', cms)).json) > listRv);
  });

  it('watches from before the restore get 410 Gone; clients relist', async () => {
    const r = second!;
    for (const rv of [listedRv, snapshotRv, watchedRv]) {
      const w = await openWatch(r, `${cms}?watch=1&resourceVersion=${rv}`);
      assert.equal(w.status, 200);
      const e = await w.next(5000);
      w.close();
      assert.equal(e.type, 'ERROR', `watch from ${rv}`);
      assert.equal(e.object.code, 410);
      assert.equal(e.object.reason, 'Expired');
    }
    // exact reads from before are gone too
    const exact = await r.request('GET', `${cms}?resourceVersion=${snapshotRv}&resourceVersionMatch=Exact`);
    assert.equal(exact.status, 410, exact.text);

    // client-node's watch sees the 410 its ListWatch relists on
    const kc = new KubeConfig();
    kc.loadFromFile(r.kubeconfig);
    const seen = await new Promise<{ type: string; code?: number }>((resolve, reject) => {
      void new Watch(kc)
        .watch(
          cms,
          { resourceVersion: String(watchedRv) },
          (type, obj) => resolve({ type, code: obj?.code }),
          reject,
        )
        .catch(reject);
    });
    assert.deepEqual(seen, { type: 'ERROR', code: 410 });

    // the informer of the old server, reconnected to the restored one, holds the restored objects
    const expected = [...byName((await r.request('GET', cms)).json).keys()].sort();
    assert.ok(expected.includes('after-restore'));
    try {
      await eventually(
        () =>
          informer
            .list()
            .map((o) => o.metadata!.name!)
            .filter((n) => n !== 'kube-root-ca.crt')
            .sort()
            .join() === expected.join(),
        'the informer relisted',
        30_000,
      );
    } finally {
      informerRunning = false;
      await informer.stop();
    }

    // kubectl: gets, and a watch from the current revision streams new changes
    const k = kubectlOf(r);
    const names = (await k.ok(['get', 'configmaps', '-o', 'name'])).trim().split('\n');
    assert.deepEqual(
      names.filter((n) => n !== 'configmap/kube-root-ca.crt').sort(),
      expected.map((n) => `configmap/${n}`),
    );
    const gone = await k.ok(['get', '--raw', `${cms}?watch=1&resourceVersion=${watchedRv}`]);
    assert.match(gone, /"code":410/);
    const now = rvOf((await r.request('GET', cms)).json);
    const w = await openWatch(r, `${cms}?watch=1&resourceVersion=${now}`);
    await r.request('POST', cms, { body: cm('watched', '1') });
    const e = await w.next(5000);
    w.close();
    assert.equal(e.type, 'ADDED');
    assert.equal(e.object.metadata.name, 'watched');
  });
});
