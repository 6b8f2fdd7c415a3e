/**
 * OpenAPI on an aggregation host, against a real backend over HTTP: /openapi/v2 merges the backend's document
 * into ours (our paths win, clashing definitions renamed with their references), in JSON and Protobuf with
 * ETags that follow the content, keeping a failing backend's last document; the /openapi/v3 index points at
 * the backend's group-version document with the backend's hash.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { WireReader } from '../modules/codec/index.js';
import {
  mergedOpenApiV2Document,
  mergedOpenApiV2Response,
  mergedOpenApiV3Index,
  openApiV2Document,
  openApiV2Response,
  openApiV3Index,
  remoteOpenApiV2,
  remoteOpenApiV3,
  type RemoteOpenApiV2,
  type RemoteOpenApiV3,
} from '../modules/openapi/index.js';
import { allTestDefinitions } from './support/definitions.js';
import { apiService, Backend, HttpRemoteApis } from './support/remote-backend.js';

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';
const PROTOBUF = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';

function backendSpec(description = 'A gadget.') {
  return {
    swagger: '2.0',
    info: { title: 'gadgets', version: 'v1' },
    paths: {
      '/apis/metrics.example.io/v1/gadgets': {
        get: {
          operationId: 'listGadgets',
          parameters: [{ $ref: '#/parameters/limit-1NfNmdNH' }],
          responses: { '200': { description: 'OK', schema: { $ref: '#/definitions/io.example.Gadget' } } },
        },
      },
      // a path we serve ourselves: ours is kept, and what only this copy used is left out
      '/version/': {
        get: {
          operationId: 'theirVersion',
          responses: { '200': { schema: { $ref: '#/definitions/their.Only' } } },
        },
      },
    },
    parameters: { 'limit-1NfNmdNH': { name: 'limit', in: 'query', type: 'integer', uniqueItems: true } },
    definitions: {
      'io.example.Gadget': {
        description,
        type: 'object',
        properties: { metadata: { $ref: `#/definitions/${META}.ObjectMeta` } },
        'x-kubernetes-group-version-kind': [{ group: 'metrics.example.io', kind: 'Gadget', version: 'v1' }],
      },
      // same name as ours, other content: renamed, and the reference above follows
      [`${META}.ObjectMeta`]: { type: 'object', description: 'their ObjectMeta' },
      'their.Only': { type: 'string' },
    },
  };
}

describe('OpenAPI with remote APIServices', () => {
  const defs = allTestDefinitions();
  const backend = new Backend();
  const remote = new HttpRemoteApis();
  let v2: RemoteOpenApiV2;
  let v3: RemoteOpenApiV3;

  before(async () => {
    await backend.start();
    backend.json('/openapi/v2', backendSpec());
    backend.json('/openapi/v3', {
      paths: {
        'apis/metrics.example.io/v1': {
          serverRelativeURL: '/openapi/v3/apis/metrics.example.io/v1?hash=ABC123',
        },
        version: { serverRelativeURL: '/openapi/v3/version?hash=X' },
      },
    });
    remote.set([apiService('metrics.example.io', 'v1', backend.url, 1000, 15)]);
    v2 = remoteOpenApiV2(remote);
    v3 = remoteOpenApiV3(remote);
    await Promise.all([v2.refresh(), v3.refresh()]);
  });

  after(async () => {
    v2.close();
    v3.close();
    await backend.stop();
  });

  it('merges the backend paths and definitions into /openapi/v2, ours winning', () => {
    const local = openApiV2Document(defs).doc as Record<string, Record<string, unknown>>;
    const doc = mergedOpenApiV2Document(defs, v2.snapshot).doc as Record<string, Record<string, any>>;
    assert.deepEqual(doc.paths['/version/'], local.paths['/version/']);
    assert.equal(doc.paths['/apis/metrics.example.io/v1/gadgets'].get.operationId, 'listGadgets');
    assert.equal(doc.definitions['their.Only'], undefined);
    assert.deepEqual(doc.definitions[`${META}.ObjectMeta`], local.definitions[`${META}.ObjectMeta`]);
    assert.deepEqual(doc.definitions[`${META}.ObjectMeta_v2`], {
      type: 'object',
      description: 'their ObjectMeta',
    });
    assert.equal(
      doc.definitions['io.example.Gadget'].properties.metadata.$ref,
      `#/definitions/${META}.ObjectMeta_v2`,
    );
    assert.deepEqual(doc.parameters, backendSpec().parameters);
    assert.deepEqual(Object.keys(doc.paths), Object.keys(doc.paths).sort());
    for (const p of Object.keys(local.paths)) assert.ok(p in doc.paths, p);
  });

  it('serves the merged document as JSON and Protobuf, each with its own ETag', () => {
    const json = mergedOpenApiV2Response(defs, v2.snapshot, { accept: 'application/json' });
    assert.equal(json.status, 200);
    assert.ok(String(json.body).includes('listGadgets'));
    assert.notEqual(json.headers.ETag, openApiV2Response(defs).headers.ETag);
    const pb = mergedOpenApiV2Response(defs, v2.snapshot, { accept: PROTOBUF });
    assert.equal(pb.status, 200);
    const bytes = pb.body as Buffer;
    assert.ok(bytes.includes(Buffer.from('listGadgets')));
    assert.ok(bytes.includes(Buffer.from('limit-1NfNmdNH')));
    // the shared parameters are Document field 10
    const r = new WireReader(bytes);
    const fieldNumbers = new Set<number>();
    while (!r.done()) {
      const { field } = r.tag();
      fieldNumbers.add(field);
      r.bytes();
    }
    assert.ok(fieldNumbers.has(10));
    assert.notEqual(pb.headers.ETag, json.headers.ETag);
    assert.equal(
      mergedOpenApiV2Response(defs, v2.snapshot, { accept: PROTOBUF, ifNoneMatch: pb.headers.ETag }).status,
      304,
    );
  });

  it('changes the ETag when the backend document changes, and keeps the last document when it fails', async () => {
    const first = mergedOpenApiV2Response(defs, v2.snapshot).headers.ETag;
    await v2.refresh();
    assert.equal(mergedOpenApiV2Response(defs, v2.snapshot).headers.ETag, first);
    backend.json('/openapi/v2', backendSpec('A better gadget.'));
    await v2.refresh();
    const second = mergedOpenApiV2Response(defs, v2.snapshot);
    assert.notEqual(second.headers.ETag, first);
    assert.ok(String(second.body).includes('A better gadget.'));
    backend.json('/openapi/v2', { message: 'boom' }, 500);
    await v2.refresh();
    assert.equal(v2.snapshot.entries[0].state, 'stale');
    assert.equal(mergedOpenApiV2Response(defs, v2.snapshot).headers.ETag, second.headers.ETag);
  });

  it("lists the remote group-version in the /openapi/v3 index with the backend's hash, and nothing else of it", () => {
    const index = mergedOpenApiV3Index(defs, v3.snapshot);
    assert.deepEqual(index.paths['apis/metrics.example.io/v1'], {
      serverRelativeURL: '/openapi/v3/apis/metrics.example.io/v1?hash=ABC123',
    });
    assert.deepEqual(index.paths.version, openApiV3Index(defs).paths.version);
    assert.deepEqual(Object.keys(index.paths), Object.keys(index.paths).sort());
    assert.equal(Object.keys(index.paths).length, Object.keys(openApiV3Index(defs).paths).length + 1);
  });

  it('publishes only our own documents without remote APIServices', () => {
    assert.equal(mergedOpenApiV3Index(defs, { entries: [] }), openApiV3Index(defs));
    assert.equal(mergedOpenApiV2Document(defs, { entries: [] }), openApiV2Document(defs));
  });
});
