/** Protobuf responses (`application/vnd.kubernetes.protobuf`), read back with the kinds' own schemas. */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import {
  decodeProtobuf,
  encodeProtobuf,
  listSchema,
  partialObjectMetadataSchema,
  responseSchema,
  statusSchema,
  unwrap,
  WireReader,
  wrap,
} from '../modules/codec/index.js';
import { configMapDefinition } from '../modules/kinds/index.js';
import { rawRequest } from './support/raw-request.js';
import { type TestServer } from './support/server.js';
import { useServer } from './support/use-server.js';

const PROTOBUF = 'application/vnd.kubernetes.protobuf';
const cmBody = (name: string) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  data: { a: '1' },
});
const getRaw = (s: TestServer, path: string, accept: string) => rawRequest(s, 'GET', path, { accept });

describe('Protobuf responses', () => {
  const s = useServer();
  const base = '/api/v1/namespaces/default/configmaps';

  before(async () => {
    await s.request('POST', base, {
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'pb' }, data: { a: '1' } },
    });
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
    // pb, and kube-root-ca.crt (the root-ca-cert-publisher's, in every namespace)
    assert.deepEqual((list.items as { metadata: { name: string } }[]).map((i) => i.metadata.name).sort(), [
      'kube-root-ca.crt',
      'pb',
    ]);
    const missing = await getRaw(s, `${base}/none`, accept);
    assert.equal(missing.status, 404);
    const status = decodeProtobuf(missing.body, statusSchema);
    assert.equal(status.reason, 'NotFound');
    assert.equal(status.code, 404);
  });

  it('the spec’s alias works; JSON stays the answer when listed first; a watch streams Protobuf', async () => {
    const alias = await getRaw(s, `${base}/pb`, 'application/vnd.orch.protobuf');
    assert.equal(alias.type, 'application/vnd.kubernetes.protobuf');
    const json = await getRaw(s, `${base}/pb`, 'application/json,application/vnd.kubernetes.protobuf');
    assert.match(json.type, /^application\/json/);
    const onlyProtobufWatch = await getRaw(
      s,
      `${base}?watch=1&timeoutSeconds=1`,
      'application/vnd.kubernetes.protobuf',
    );
    assert.equal(onlyProtobufWatch.status, 200);
    assert.equal(onlyProtobufWatch.type, 'application/vnd.kubernetes.protobuf;stream=watch');
  });

  it('PartialObjectMetadata(List) in Protobuf, v1 and v1beta1 (whose list has its fields the other way round)', async () => {
    const pom = (as: string, v: string) => `${PROTOBUF};as=${as};v=${v};g=meta.k8s.io`;
    const json = (await s.request('GET', `${base}/pb`)).json;
    const one = await getRaw(s, `${base}/pb`, pom('PartialObjectMetadata', 'v1'));
    assert.equal(one.type, PROTOBUF);
    const envelope = unwrap(one.body);
    assert.deepEqual([envelope.apiVersion, envelope.kind], ['meta.k8s.io/v1', 'PartialObjectMetadata']);
    const partial = decodeProtobuf(one.body, partialObjectMetadataSchema);
    assert.deepEqual(partial.metadata, json.metadata);
    assert.equal(partial.data, undefined);

    for (const v of ['v1', 'v1beta1']) {
      const list = await getRaw(s, base, pom('PartialObjectMetadataList', v));
      assert.equal(list.status, 200);
      const { raw, kind, apiVersion } = unwrap(list.body);
      assert.deepEqual([apiVersion, kind], [`meta.k8s.io/${v}`, 'PartialObjectMetadataList']);
      const decoded = decodeProtobuf(
        list.body,
        responseSchema({ kind, apiVersion }, partialObjectMetadataSchema),
      );
      const items = decoded.items as { metadata: { name: string } }[];
      assert.deepEqual(
        items.map((i) => i.metadata.name).filter((n) => n !== 'kube-root-ca.crt'),
        ['pb'],
      );
      assert.match((decoded.metadata as { resourceVersion: string }).resourceVersion, /^\d+$/);
      // v1: {1: ListMeta, 2: items}; v1beta1: {1: items, 2: ListMeta}. ListMeta starts with an empty selfLink,
      // an item with its (non-empty) ObjectMeta
      const first = firstField(raw);
      assert.equal(first[0], 0x0a);
      assert.equal(first[1] === 0, v === 'v1', `field 1 of ${v}: ${Buffer.from(first).toString('hex')}`);
    }
  });

  it('Table is never Protobuf: skipped for the next acceptable type, else 406', async () => {
    const table = `${PROTOBUF};as=Table;v=v1;g=meta.k8s.io`;
    const only = await getRaw(s, base, table);
    assert.equal(only.status, 406);
    assert.equal(
      JSON.parse(only.body.toString()).message,
      'only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf',
    );
    const fallback = await getRaw(s, base, `${table}, application/json`);
    assert.equal(fallback.status, 200);
    assert.equal(JSON.parse(fallback.body.toString()).kind, 'ConfigMapList');
    const jsonTable = await getRaw(s, base, `${table}, application/json;as=Table;v=v1;g=meta.k8s.io`);
    assert.equal(JSON.parse(jsonTable.body.toString()).kind, 'Table');
  });

  it('406 lists what is served; 415 names what is accepted; a body without the k8s\\0 prefix is a 400', async () => {
    const html = await getRaw(s, `${base}/pb`, 'text/html');
    assert.equal(html.status, 406);
    assert.deepEqual(JSON.parse(html.body.toString()), {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf',
      reason: 'NotAcceptable',
      code: 406,
    });
    const text = await rawRequest(s, 'POST', base, { 'content-type': 'text/plain' }, 'x');
    assert.equal(text.status, 415);
    assert.deepEqual(JSON.parse(text.body.toString()), {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf',
      reason: 'UnsupportedMediaType',
      code: 415,
    });
    const body = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } });
    const wrong = await rawRequest(s, 'POST', base, { 'content-type': PROTOBUF }, body);
    assert.equal(wrong.status, 400);
    const status = JSON.parse(wrong.body.toString());
    assert.equal(status.reason, 'BadRequest');
    assert.equal(
      status.message,
      'the object provided is unrecognized (must be of type ConfigMap): provided data does not appear to be a ' +
        `protobuf message, expected prefix [107 56 115 0] (${body.slice(0, 30)} ...)`,
    );
    // the answer to a Protobuf client is Protobuf, errors included
    const asked = await rawRequest(s, 'POST', base, { 'content-type': PROTOBUF, accept: PROTOBUF }, 'xyz');
    assert.equal(asked.status, 400);
    assert.equal(
      decodeProtobuf(asked.body, statusSchema).message,
      'the object provided is unrecognized (must be of type ConfigMap): provided data does not appear to be a ' +
        'protobuf message, expected prefix [107 56 115 0] (78797a)',
    );
    const prefixOnly = await rawRequest(s, 'POST', base, { 'content-type': PROTOBUF }, Buffer.from('k8s\0'));
    assert.equal(
      JSON.parse(prefixOnly.body.toString()).message,
      'the object provided is unrecognized (must be of type ConfigMap): empty body (6b387300)',
    );
    const cut = Buffer.concat([
      Buffer.from(encodeProtobuf(cmBody('cut'), configMapDefinition.schema)),
    ]).subarray(0, -3);
    const truncated = await rawRequest(s, 'POST', base, { 'content-type': PROTOBUF }, cut);
    assert.equal(truncated.status, 400);
    assert.match(JSON.parse(truncated.body.toString()).message, /^the object provided is unrecognized/);
    // an envelope that unwraps, around an object that does not decode: named by the envelope's type
    const inner = wrap({ apiVersion: 'v1', kind: 'ConfigMap', raw: Uint8Array.of(0x0a, 0x05) });
    const broken = await rawRequest(s, 'POST', base, { 'content-type': PROTOBUF }, inner);
    assert.equal(
      JSON.parse(broken.body.toString()).message,
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: unexpected EOF',
    );
  });
});

/** the bytes of the first field of a message */
function firstField(raw: Uint8Array): Uint8Array {
  const r = new WireReader(raw);
  r.tag();
  return r.bytes();
}
