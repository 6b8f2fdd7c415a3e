/** Protobuf responses (`application/vnd.kubernetes.protobuf`), read back with the kinds' own schemas. */
import assert from 'node:assert/strict';
import { request as httpsRequest } from 'node:https';
import { after, before, describe, it } from 'node:test';
import { decodeProtobuf, listSchema, statusSchema } from '../modules/codec/protobuf/index.js';
import { configMapDefinition } from '../modules/registry/kinds/index.js';
import { testDatabase, type TestDatabase } from './support/database.js';
import { startServer, type TestServer } from './support/server.js';

function getRaw(
  s: TestServer,
  path: string,
  accept: string,
): Promise<{ status: number; type: string; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      new URL(path, s.url),
      { ca: s.ca, headers: { authorization: `Bearer ${s.token}`, accept } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            type: String(res.headers['content-type']),
            body: Buffer.concat(chunks),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('Protobuf responses', () => {
  let db: TestDatabase;
  let s: TestServer;
  const base = '/api/v1/namespaces/default/configmaps';

  before(async () => {
    db = await testDatabase();
    s = await startServer({ databaseUrl: db.url });
    await s.request('POST', base, {
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'pb' }, data: { a: '1' } },
    });
  });

  after(async () => {
    await s?.stop();
    await db?.drop();
  });

  it('objects, lists and errors come as the k8s\\0 envelope when asked for first', async () => {
    const accept = 'application/vnd.kubernetes.protobuf,application/json';
    const one = await getRaw(s, `${base}/pb`, accept);
    assert.equal(one.status, 200);
    assert.equal(one.type, 'application/vnd.kubernetes.protobuf');
    assert.deepEqual([...one.body.subarray(0, 4)], [0x6b, 0x38, 0x73, 0x00]);
    const cm = decodeProtobuf(one.body, configMapDefinition.schema);
    assert.equal(cm.kind, 'ConfigMap');
    assert.deepEqual(cm.data, { a: '1' });
    const list = decodeProtobuf((await getRaw(s, base, accept)).body, listSchema(configMapDefinition.schema));
    assert.equal(list.kind, 'ConfigMapList');
    assert.equal((list.items as unknown[]).length, 1);
    const missing = await getRaw(s, `${base}/none`, accept);
    assert.equal(missing.status, 404);
    const status = decodeProtobuf(missing.body, statusSchema);
    assert.equal(status.reason, 'NotFound');
    assert.equal(status.code, 404);
  });

  it('the spec’s alias works; JSON stays the answer when listed first; watch falls back to JSON', async () => {
    const alias = await getRaw(s, `${base}/pb`, 'application/vnd.orch.protobuf');
    assert.equal(alias.type, 'application/vnd.kubernetes.protobuf');
    const json = await getRaw(s, `${base}/pb`, 'application/json,application/vnd.kubernetes.protobuf');
    assert.match(json.type, /^application\/json/);
    const onlyProtobufWatch = await getRaw(
      s,
      `${base}?watch=1&timeoutSeconds=1`,
      'application/vnd.kubernetes.protobuf',
    );
    assert.equal(onlyProtobufWatch.status, 406);
  });
});
