/** gzip responses (APIResponseCompression): large bodies to clients that accept gzip, nothing else; gate off. */
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { before, describe, it } from 'node:test';
import { testDatabase } from './support/database.js';
import { kubectl } from './support/kubectl.js';
import { rawRequest } from './support/raw-request.js';
import { startServer, type TestServer } from './support/server.js';
import { useServer } from './support/use-server.js';

const LIST = '/api/v1/namespaces/default/configmaps';
/** the listed ConfigMaps this file made (every namespace also holds kube-root-ca.crt) */
const big = (list: { items: { metadata: { name: string } }[] }) =>
  list.items.filter((i) => i.metadata.name.startsWith('big-'));

/** 40 ConfigMaps of 4 KiB: a list of ~170 KiB, over kube's 128 KiB threshold */
async function fill(s: TestServer): Promise<void> {
  for (let i = 0; i < 40; i++) {
    const r = await s.request('POST', LIST, {
      body: {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: `big-${i}` },
        data: { v: 'x'.repeat(4096) },
      },
    });
    assert.equal(r.status, 201);
  }
}

describe('response compression, gate on (default)', () => {
  const s = useServer();

  before(async () => {
    await fill(s);
  });

  it('gzips a large list for a client that accepts gzip', async () => {
    const r = await rawRequest(s, 'GET', LIST, { 'accept-encoding': 'gzip' });
    assert.equal(r.status, 200);
    assert.equal(r.headers['content-encoding'], 'gzip');
    assert.equal(r.headers.vary, 'Accept-Encoding');
    assert.equal(r.type, 'application/json');
    const list = JSON.parse(gunzipSync(r.body).toString());
    assert.equal(big(list).length, 40);
    assert.ok(r.body.length < (40 * 4096) / 4, `${r.body.length} bytes`);
  });

  it('sends the same list uncompressed without Accept-Encoding, and small answers never compressed', async () => {
    const plain = await rawRequest(s, 'GET', LIST);
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(big(JSON.parse(plain.body.toString())).length, 40);
    const refused = await rawRequest(s, 'GET', LIST, { 'accept-encoding': 'gzip;q=0, identity' });
    assert.equal(refused.headers['content-encoding'], undefined);
    const small = await rawRequest(s, 'GET', `${LIST}/big-1`, { 'accept-encoding': 'gzip' });
    assert.equal(small.status, 200);
    assert.equal(small.headers['content-encoding'], undefined);
    assert.equal(JSON.parse(small.body.toString()).metadata.name, 'big-1');
  });

  it('works with kubectl, which asks for gzip', async () => {
    const r = await kubectl(['get', 'configmaps', '-n', 'default', '-o', 'json'], {
      kubeconfig: s.kubeconfig,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(
      JSON.parse(r.stdout).items.filter((i: any) => i.metadata.name.startsWith('big-')).length,
      40,
    );
  });
});

describe('response compression, --feature-gates=APIResponseCompression=false', () => {
  it('never compresses', async () => {
    const db = await testDatabase();
    const s = await startServer({
      databaseUrl: db.url,
      args: ['--feature-gates=APIResponseCompression=false'],
    });
    try {
      await fill(s);
      const r = await rawRequest(s, 'GET', LIST, { 'accept-encoding': 'gzip' });
      assert.equal(r.status, 200);
      assert.equal(r.headers['content-encoding'], undefined);
      assert.equal(big(JSON.parse(r.body.toString())).length, 40);
    } finally {
      await s.stop();
      await db.drop();
    }
  });
});
