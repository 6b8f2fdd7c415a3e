import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { WireReader, WireType } from '../codec/index.js';
import { allTestDefinitions } from '../../test/support/definitions.js';
import { openApiV2Document, openApiV2Response } from './v2.js';
import { openApiV2Protobuf } from './v2-protobuf.js';

/** A message's fields by number: varints as numbers, length-delimited values as bytes, doubles as numbers. */
type Fields = Map<number, (number | Uint8Array)[]>;

function fields(buf: Uint8Array): Fields {
  const r = new WireReader(buf);
  const out: Fields = new Map();
  while (!r.done()) {
    const { field, wireType } = r.tag();
    let value: number | Uint8Array;
    if (wireType === WireType.Varint) value = Number(r.varint());
    else if (wireType === WireType.Bytes) value = r.bytes();
    else if (wireType === WireType.Fixed64) value = r.fixed64().getFloat64(0, true);
    else throw new Error(`wire type ${wireType}`);
    out.set(field, [...(out.get(field) ?? []), value]);
  }
  return out;
}

const text = (v: number | Uint8Array | undefined) => Buffer.from(v as Uint8Array).toString('utf8');
const one = (f: Fields, n: number) => fields(f.get(n)![0] as Uint8Array);
/** the entries of a repeated Named* field: name → value message */
function named(f: Fields, n: number): Map<string, Fields> {
  const out = new Map<string, Fields>();
  for (const entry of f.get(n) ?? []) {
    const e = fields(entry as Uint8Array);
    out.set(text(e.get(1)![0]), fields(e.get(2)![0] as Uint8Array));
  }
  return out;
}
const yamlOf = (any: Fields) => parse(text(any.get(2)![0]));

const defs = allTestDefinitions();
const json = openApiV2Document(defs).doc as Record<string, any>;
const doc = fields(openApiV2Protobuf(json));

describe('/openapi/v2 as gnostic Protobuf', () => {
  it('carries the document fields at gnostic numbers', () => {
    assert.equal(text(doc.get(1)![0]), '2.0');
    const info = one(doc, 2);
    assert.equal(text(info.get(1)![0]), json.info.title);
    assert.equal(text(info.get(2)![0]), json.info.version);
    const security = named(one(doc, 13), 1).get('BearerToken')!;
    const apiKey = one(security, 2);
    assert.deepEqual(
      [1, 2, 3].map((n) => text(apiKey.get(n)![0])),
      ['apiKey', 'authorization', 'header'],
    );
  });

  it('has every definition, with properties, types, required and vendor extensions', () => {
    const definitions = named(one(doc, 9), 1);
    assert.equal(definitions.size, Object.keys(json.definitions).length);
    const configMap = definitions.get('io.k8s.api.core.v1.ConfigMap')!;
    const props = named(one(configMap, 25), 1);
    assert.deepEqual(
      [...props.keys()],
      Object.keys(json.definitions['io.k8s.api.core.v1.ConfigMap'].properties),
    );
    const data = props.get('data')!;
    assert.deepEqual(one(data, 22).get(1)!.map(text), ['object']);
    const values = fields(one(data, 21).get(1)![0] as Uint8Array);
    assert.deepEqual(one(values, 22).get(1)!.map(text), ['string']);
    assert.equal(
      text(props.get('metadata')!.get(1)![0]),
      '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
    );
    const extensions = named(configMap, 31);
    assert.deepEqual(yamlOf(extensions.get('x-kubernetes-group-version-kind')!), [
      { group: '', kind: 'ConfigMap', version: 'v1' },
    ]);
  });

  it('has every path with its operations, parameters and responses', () => {
    const paths = named(one(doc, 8), 2);
    assert.equal(paths.size, Object.keys(json.paths).length);
    const item = paths.get('/api/v1/namespaces/{namespace}/configmaps/{name}')!;
    const get = one(item, 2);
    assert.equal(
      text(get.get(5)![0]),
      json.paths['/api/v1/namespaces/{namespace}/configmaps/{name}'].get.operationId,
    );
    const responses = named(one(get, 9), 1);
    const ok = one(responses.get('200')!, 1);
    const schema = fields(one(ok, 2).get(1)![0] as Uint8Array);
    assert.equal(text(schema.get(1)![0]), '#/definitions/io.k8s.api.core.v1.ConfigMap');
    // path-level parameters: name, namespace (path), pretty (query)
    const params = item.get(9)!.map((p) => one(fields(p as Uint8Array), 1));
    const byName = new Map(
      params.map((p) => {
        const nonBody = one(p, 2);
        const [n] = [...nonBody.keys()];
        const sub = one(nonBody, n);
        return [text(sub.get(4)![0]), { oneof: n, sub }];
      }),
    );
    assert.equal(byName.get('name')!.oneof, 4, 'a path parameter');
    assert.equal(byName.get('pretty')!.oneof, 3, 'a query parameter');
    assert.equal(byName.get('name')!.sub.get(1)![0], 1, 'required');
  });

  it('is served for the Protobuf media types with its own ETag', () => {
    const accept = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';
    const r = openApiV2Response(defs, { accept });
    assert.equal(r.status, 200);
    assert.equal(r.headers['Content-Type'], 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf');
    assert.notEqual(r.headers.ETag, openApiV2Response(defs, { accept: 'application/json' }).headers.ETag);
    assert.equal(openApiV2Response(defs, { accept, ifNoneMatch: r.headers.ETag }).status, 304);
    const legacy = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';
    assert.equal(openApiV2Response(defs, { accept: legacy }).status, 200);
    assert.equal(openApiV2Response(defs, { accept: 'text/html' }).status, 406);
  });
});
