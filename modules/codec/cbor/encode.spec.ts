import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import cbor from 'cbor';
import type { Schema } from '../../api/index.js';
import { cborListSchema, encodeCbor } from './encode.js';
import { c, diagnose, hex, kinds, schemas, toHex } from '../../../test/support/cbor.js';

/** the encoding without the self-described tag, for scalar checks */
const bare = (value: unknown, schema?: Schema) => toHex(encodeCbor(value, schema)).replace(/^d9d9f7/, '');

describe('CBOR encoding (kube deterministic mode)', () => {
  it('encloses every encoded value in the self-described tag (d9 d9 f7)', () => {
    assert.equal(toHex(encodeCbor({})), 'd9d9f7a0');
    assert.equal(toHex(encodeCbor(null)), 'd9d9f7f6');
    assert.equal(toHex(encodeCbor('x')), 'd9d9f74178');
  });

  it('writes strings, map keys included, as byte strings and never as text strings', () => {
    assert.equal(bare({ é: 'ü' }), 'a1' + '42c3a9' + '42c3bc');
    assert.equal(bare(''), '40');
    const long = 'a'.repeat(24);
    assert.equal(bare(long), '5818' + '61'.repeat(24));
  });

  it('writes integers and lengths in their shortest form', () => {
    const cases: [number, string][] = [
      [0, '00'],
      [23, '17'],
      [24, '1818'],
      [255, '18ff'],
      [256, '190100'],
      [65535, '19ffff'],
      [65536, '1a00010000'],
      [4294967295, '1affffffff'],
      [4294967296, '1b0000000100000000'],
      [Number.MAX_SAFE_INTEGER, '1b001fffffffffffff'],
      [-1, '20'],
      [-24, '37'],
      [-25, '3818'],
      [-256, '38ff'],
      [-257, '390100'],
      [-4294967297, '3b0000000100000000'],
    ];
    for (const [n, want] of cases) assert.equal(bare(n), want, String(n));
    assert.equal(bare(Array(24).fill(0)), '9818' + '00'.repeat(24));
  });

  it('writes non-integral numbers, and numbers beyond int64, as the narrowest float that keeps the value', () => {
    const cases: [number, string][] = [
      [1.5, 'f93e00'],
      [-2.5, 'f9c100'],
      [65504, 'f97bff'], // largest half; integral, but this is a `number` field below
      [5.960464477539063e-8, 'f90001'], // smallest half subnormal
      [0.1, 'fb3fb999999999999a'],
      [100000.5, 'fa47c35040'],
      [3.4028234663852886e38, 'fa7f7fffff'],
      [1e300, 'fb7e37e43c8800759c'],
      [2 ** 64, 'fa5f800000'],
    ];
    const number: Schema = { type: 'number' };
    for (const [n, want] of cases) assert.equal(bare(n, number), want, String(n));
    assert.equal(bare(1e-10), 'fb3ddb7cdfd9d7bdbb');
    assert.equal(bare(2 ** 63), 'fa5f000000', 'int64 overflow is a float, as kube decodes such JSON');
  });

  it('writes Go float fields (`number` in the schema) as floats even when integral', () => {
    const schema: Schema = { type: 'object', properties: { f: { type: 'number' }, i: { type: 'integer' } } };
    assert.equal(bare({ f: 1, i: 1 }, schema), 'a2' + '4166f93c00' + '416901');
    assert.equal(bare({ f: -0 }, schema), 'a1' + '4166f98000');
    assert.equal(bare({ f: 1 }), 'a1' + '416601', 'without a schema integral numbers are integers');
  });

  it('writes null, booleans, arrays and maps with definite lengths, skipping undefined properties', () => {
    assert.equal(bare([true, false, null, [], {}]), '85f5f4f680a0');
    assert.equal(bare({ a: undefined, b: 1 }), 'a1' + '416201');
  });

  it('sorts map keys bytewise by their encoding: shorter keys first, then by their bytes', () => {
    const keys = ['bb', 'a', 'B', 'é', 'ab', 'deletionGracePeriodSeconds', 'zz', 'aaa'];
    const value = Object.fromEntries(keys.map((k) => [k, 0]));
    const order = ['B', 'a', 'ab', 'bb', 'zz', 'é', 'aaa', 'deletionGracePeriodSeconds'];
    assert.equal(bare(value), c.map(...order.map((k): [string, string] => [k, '00'])));
    // the 26-byte key's head is 0x58 0x1a, which sorts after every head of a key under 24 bytes
    assert.match(bare(value), /581a64656c6574696f6e/);
  });

  it('writes Go []byte fields (format: byte) as their raw bytes in tag 22, null as null', () => {
    const secret = { data: { a: 'AQID', empty: '', gone: null } };
    assert.equal(
      bare(secret, schemas.secret),
      c.map(['data', c.map(['a', c.b64('010203')], ['gone', c.null], ['empty', c.b64('')])]),
    );
    // without the kind's schema (custom resources) base64 text is just text
    assert.equal(
      bare(secret),
      c.map(['data', c.map(['a', c.bs('AQID')], ['gone', c.null], ['empty', c.bs('')])]),
    );
  });

  it('applies the item schema to every object of a list', () => {
    const list = {
      kind: 'SecretList',
      apiVersion: 'v1',
      metadata: { resourceVersion: '5' },
      items: [{ data: { k: 'AA==' } }, { data: { k: 'AQ==' } }],
    };
    assert.equal(
      bare(list, cborListSchema(schemas.secret)),
      c.map(
        ['kind', c.bs('SecretList')],
        [
          'items',
          c.arr(c.map(['data', c.map(['k', c.b64('00')])]), c.map(['data', c.map(['k', c.b64('01')])])),
        ],
        ['metadata', c.map(['resourceVersion', c.bs('5')])],
        ['apiVersion', c.bs('v1')],
      ),
    );
  });

  for (const [name, { object, cbor }] of Object.entries(kinds)) {
    it(`encodes a fully populated ${object.kind} to kube's bytes`, () => {
      const schema = schemas[name as keyof typeof schemas];
      assert.equal(toHex(encodeCbor(object, schema)), cbor);
    });
  }

  it('reads back as the expected items in diagnostic notation (independent decoder)', () => {
    assert.equal(
      diagnose(encodeCbor({ ...kinds.secret.object, metadata: { name: 'n' } }, schemas.secret)),
      "55799({'data': {'token': 22('tok'), 'tls.key': 22(h'0203')}, 'kind': 'Secret', " +
        "'type': 'kubernetes.io/tls', 'metadata': {'name': 'n'}, 'immutable': false, 'apiVersion': 'v1', " +
        "'stringData': {'plain': 'p'}})",
    );
    assert.equal(
      diagnose(encodeCbor({ spec: { leaseDurationSeconds: 15, ratio: 0.5 } }, schemas.lease)),
      "55799({'spec': {'ratio': 0.5_1, 'leaseDurationSeconds': 15}})",
    );
    assert.equal(
      diagnose(hex(kinds.event.cbor)).slice(0, 62),
      "55799({'kind': 'Event', 'type': 'Normal', 'count': 300, 'actio",
    );
  });

  it('reads back with an independent decoder (node-cbor) as the same structure, Go []byte fields as tag 22', () => {
    const decoded = cbor.decodeFirstSync(Buffer.from(encodeCbor(kinds.configMap.object, schemas.configMap)), {
      tags: { 22: (v: Buffer) => ({ tag: 22, value: Buffer.from(v).toString('hex') }) },
    });
    assert.ok(decoded instanceof cbor.Tagged);
    assert.equal(decoded.tag, 55799);
    const plain = (v: unknown): unknown => {
      if (v instanceof Map)
        return Object.fromEntries([...v].map(([k, x]) => [Buffer.from(k).toString('utf8'), plain(x)]));
      if (v instanceof Uint8Array) return Buffer.from(v).toString('utf8');
      return Array.isArray(v) ? v.map(plain) : v;
    };
    assert.deepEqual(plain(decoded.value), {
      ...kinds.configMap.object,
      binaryData: { bin: { tag: 22, value: '0001ff' }, empty: { tag: 22, value: '' } },
    });
  });
});
