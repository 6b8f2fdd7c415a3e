/**
 * The quick-start path: `pgkube serve` with no database URL brings up its own PostgreSQL in the data dir,
 * keeps objects across restarts; static token file authentication; `pgkube migrate`.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import postgres from 'postgres';
import { testDatabase } from './support/database.js';
import { kubectl } from './support/kubectl.js';
import { startServer, type TestServer } from './support/server.js';
import { grant, user } from './support/rbac.js';

const mainJs = fileURLToPath(new URL('../src/main.js', import.meta.url));

describe('standalone server on embedded PostgreSQL', () => {
  let s: TestServer | undefined;
  after(async () => {
    await s?.stop();
  });

  it('is ready within 20 s on a fresh data dir, and keeps objects across a restart', async () => {
    const started = Date.now();
    s = await startServer({});
    const seconds = (Date.now() - started) / 1000;
    assert.ok(seconds < 20, `ready after ${seconds.toFixed(1)} s`);
    const created = await kubectl(['create', 'configmap', 'kept', '--from-literal=a=b'], {
      kubeconfig: s.kubeconfig,
    });
    assert.equal(created.code, 0, created.stderr);
    const dataDir = s.dataDir;
    await s.stop();
    s = await startServer({ dataDir });
    const got = await kubectl(['get', 'cm', 'kept', '-o', 'jsonpath={.data.a}'], {
      kubeconfig: s.kubeconfig,
    });
    assert.equal(got.stdout, 'b', got.stderr);
    const ns = await kubectl(['get', 'ns', 'kube-system', '-o', 'name'], { kubeconfig: s.kubeconfig });
    assert.equal(ns.stdout.trim(), 'namespace/kube-system');
  });
});

describe('static token file', () => {
  it('authenticates the listed users; an unknown token is 401', async () => {
    const db = await testDatabase();
    const tokens = path.join(await mkdtemp(path.join(tmpdir(), 'pgkube-tokens-')), 'tokens.csv');
    await writeFile(tokens, 'alice-token,alice,1001,"devs,ops"\nbob-token,bob,1002\n');
    const s = await startServer({ databaseUrl: db.url, args: [`--token-auth-file=${tokens}`] });
    try {
      await grant(
        s,
        'listed-users',
        [user('alice'), user('bob')],
        [{ verbs: ['list'], apiGroups: [''], resources: ['namespaces'] }],
      );
      const ok = await s.request('GET', '/api/v1/namespaces', { token: 'alice-token' });
      assert.equal(ok.status, 200);
      assert.equal((await s.request('GET', '/api/v1/namespaces', { token: 'bob-token' })).status, 200);
      const bad = await s.request('GET', '/api/v1/namespaces', { token: 'mallory-token' });
      assert.equal(bad.status, 401);
      assert.equal(bad.json.kind, 'Status');
      const anonymous = await s.request('GET', '/api/v1/namespaces', { token: null });
      assert.equal(anonymous.status, 403);
      assert.equal(anonymous.json.reason, 'Forbidden');
    } finally {
      await s.stop();
      await db.drop();
    }
  });
});

describe('pgkube migrate', () => {
  it('creates the schema on an empty database and is idempotent', async () => {
    const db = await testDatabase();
    try {
      for (let i = 0; i < 2; i++) {
        const r = spawnSync(process.execPath, [mainJs, 'migrate', `--database-url=${db.url}`], {
          encoding: 'utf8',
        });
        assert.equal(r.status, 0, r.stderr);
      }
      const sql = postgres(db.url, { max: 1, onnotice: () => undefined });
      const tables =
        await sql`SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`;
      const [{ rv }] = await sql`SELECT rv FROM revision WHERE id = 1`;
      await sql.end();
      assert.deepEqual(
        tables.map((t) => t.tablename),
        ['audit_events', 'changes', 'database_identity', 'objects', 'revision'],
      );
      assert.equal(Number(rv), 1);
    } finally {
      await db.drop();
    }
  });

  it('refuses bad flags with a clear message and exit code 2', () => {
    const r = spawnSync(process.execPath, [mainJs, 'serve', '--no-such-flag=1'], { encoding: 'utf8' });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /unknown flag: --no-such-flag/);
  });
});
