import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../api/index.js';
import type { Schema } from '../../api/index.js';
import { decodeCbor } from './decode.js';
import { encodeCbor } from './encode.js';
import { CborDecodeError } from './errors.js';
import { c, hex, kinds, schemas } from '../../../test/support/cbor.js';

const prefix = 'unable to determine group/version/kind: ';

function rejects(h: string, message: string, schema?: Schema): void {
  assert.throws(
    () => decodeCbor(hex(h), schema),
    (e: unknown) => {
      assert.ok(e instanceof CborDecodeError && e instanceof ApiError);
      assert.equal(e.code, 400);
      assert.equal(e.reason, 'BadRequest');
      assert.equal(e.message, message);
      return true;
    },
    h,
  );
}

/** a map {k: value} around an item, so the item is not the outer one */
const inner = (item: string) => c.map(['k', item]);

describe('CBOR decoding (kube rules)', () => {
  for (const [name, { object }] of Object.entries(kinds)) {
    it(`round-trips a fully populated ${object.kind}: JSON → CBOR → JSON, with and without the schema`, () => {
      const schema = schemas[name as keyof typeof schemas];
      const bytes = encodeCbor(object, schema);
      assert.deepEqual(decodeCbor(bytes, schema), object);
      // tag 22 reads back as base64 text even where no Go type says "bytes"
      assert.deepEqual(decodeCbor(bytes), object);
    });
  }

  it('reads text strings as well as byte strings, with or without the self-described tag', () => {
    const text = c.map(['kind', c.ts('ConfigMap')]).replace(c.bs('kind'), c.ts('kind'));
    assert.deepEqual(decodeCbor(hex(text), schemas.configMap), { kind: 'ConfigMap' });
    assert.deepEqual(decodeCbor(hex('d9d9f7' + text)), { kind: 'ConfigMap' });
    assert.deepEqual(decodeCbor(hex(inner(c.bs('\ufeffé')))), { k: '\ufeffé' }, 'a BOM is content');
  });

  it('reads byte strings that are not UTF-8 (kube keeps the bytes; JSON shows U+FFFD)', () => {
    assert.deepEqual(decodeCbor(hex(inner('42c328'))), { k: '\ufffd(' });
  });

  it('reads indefinite-length strings, arrays and maps', () => {
    assert.deepEqual(decodeCbor(hex(inner('5f4161426263ff'))), { k: 'abc' });
    assert.deepEqual(decodeCbor(hex(inner('7f6161626263ff'))), { k: 'abc' });
    assert.deepEqual(decodeCbor(hex(inner('9f0102ff'))), { k: [1, 2] });
    assert.deepEqual(decodeCbor(hex('bf4161bf416202ffff')), { a: { b: 2 } });
  });

  it('skips nested self-described tags and tags it does not know', () => {
    assert.deepEqual(decodeCbor(hex('d9d9f7d9d9f7' + c.map(['a', 'd903e8' + c.bs('x')]))), { a: 'x' });
  });

  it('reads byte strings inside tags 21, 22 and 23 as base64url, base64 and hex text', () => {
    assert.deepEqual(decodeCbor(hex(inner('d543fbff01'))), { k: '-_8B' });
    assert.deepEqual(decodeCbor(hex(inner('d643fbff01'))), { k: '+/8B' });
    assert.deepEqual(decodeCbor(hex(inner('d743fbff01'))), { k: 'fbff01' });
    // a tag applies to every byte string inside; the nearest tag wins; text strings are left alone
    assert.deepEqual(decodeCbor(hex(inner('d683' + '4101' + 'd74102' + '6161'))), { k: ['AQ==', '02', 'a'] });
  });

  it('reads Go []byte fields: tagged bytes are raw, untagged bytes are base64 text (as in JSON)', () => {
    const secret = (value: string) => hex(c.map(['data', c.map(['k', value])]));
    const data = (value: string) =>
      (decodeCbor(secret(value), schemas.secret) as { data: { k: unknown } }).data.k;
    assert.equal(data(c.b64('010203')), 'AQID');
    assert.equal(data(c.tag(21, c.bytes('fbff'))), '+/8=');
    assert.equal(data(c.bs('AQID')), 'AQID');
    assert.equal(data(c.bs('AQ\r\nID')), 'AQID', 'line breaks are skipped, as Go does');
    assert.equal(data(c.null), null);
    rejects(
      c.map(['data', c.map(['k', c.bs('AQ=')])]),
      'cbor: failed to decode base64 from byte string: illegal base64 data at input byte 3',
      schemas.secret,
    );
    rejects(
      c.map(['data', c.map(['k', c.bs('A!==')])]),
      'cbor: failed to decode base64 from byte string: illegal base64 data at input byte 1',
      schemas.secret,
    );
    rejects(
      c.map(['data', c.map(['k', c.ts('AQID')])]),
      'cbor: cannot unmarshal UTF-8 text string into Go value of type []uint8',
      schemas.secret,
    );
  });

  it('reads floats of every width, and integers across the whole int64 range', () => {
    assert.deepEqual(decodeCbor(hex(inner('83f93e00fa3f800000fb3fb999999999999a'))), { k: [1.5, 1, 0.1] });
    assert.deepEqual(decodeCbor(hex(inner('821b7fffffffffffffff3b7fffffffffffffff'))), {
      k: [2 ** 63, -(2 ** 63)],
    });
    rejects(
      inner('1b8000000000000000'),
      "cbor: cannot unmarshal positive integer into Go value of type int64 (9223372036854775808 overflows Go's int64)",
    );
    rejects(
      inner('3b8000000000000000'),
      "cbor: cannot unmarshal negative integer into Go value of type int64 (-9223372036854775809 overflows Go's int64)",
    );
  });

  it('reads timestamp tags as RFC 3339 text where no Go type applies; a Go string keeps tag 0 text as sent', () => {
    assert.deepEqual(decodeCbor(hex(inner('c0' + c.ts('2024-01-02T03:04:05.500+00:00')))), {
      k: '2024-01-02T03:04:05.5Z',
    });
    assert.deepEqual(decodeCbor(hex(inner('c11a6553f100'))), { k: '2023-11-14T22:13:20Z' });
    assert.deepEqual(decodeCbor(hex(inner('c1f93e00'))), { k: '1970-01-01T00:00:01.5Z' });
    const meta = decodeCbor(
      hex(c.map(['metadata', c.map(['creationTimestamp', 'c0' + c.ts('2024-01-02T03:04:05+00:00')])])),
      schemas.configMap,
    );
    assert.deepEqual(meta, { metadata: { creationTimestamp: '2024-01-02T03:04:05+00:00' } });
    rejects(
      inner('c0' + c.ts('yesterday')),
      'cbor: cannot set yesterday for time.Time: parsing time "yesterday" as "2006-01-02T15:04:05Z07:00"',
    );
    rejects(
      inner('c1fb4415af1d78b58c40'),
      'cbor: decoded time cannot be represented in RFC3339 format with sub-second precision: Time.MarshalText: year outside of range [0,9999]',
    );
    rejects(inner('c001'), 'cbor: tag number 0 must be followed by text string, got positive integer');
    rejects(
      inner('c1' + c.bs('1')),
      'cbor: tag number 1 must be followed by integer or floating-point number, got byte string',
    );
  });

  it("ignores integer keys of a Go struct and reads fields Go's types do not have without checking inside", () => {
    const body = c.map(
      ['kind', c.bs('ConfigMap')],
      ['bogus', 'a3' + c.bs('a') + '01' + c.bs('a') + '02' + c.ts('b') + 'f7'],
      ['other', '62c328'],
    );
    const withIntKey = 'a4' + body.slice(2) + '01' + c.bs('x');
    assert.deepEqual(decodeCbor(hex(withIntKey), schemas.configMap), {
      kind: 'ConfigMap',
      bogus: { a: 2, b: null },
      other: '\ufffd(',
    });
    // without a schema (custom resources) the same body is refused
    rejects(withIntKey, 'cbor: found duplicate map key "a" at map element index 1');
  });

  it('accepts 64 levels of nesting, 1024 array elements and 1024 map pairs', () => {
    assert.ok(decodeCbor(hex(inner('81'.repeat(62) + 'a0'))));
    assert.equal((decodeCbor(hex(inner('990400' + '00'.repeat(1024)))) as { k: unknown[] }).k.length, 1024);
    const pairs = Array.from({ length: 1024 }, (_, i) => c.bs(`k${i}`) + '00').join('');
    assert.equal(Object.keys(decodeCbor(hex('b90400' + pairs)) as object).length, 1024);
  });

  describe('refuses what kube refuses', () => {
    it('duplicate map keys, a text and a byte string key with the same content included', () => {
      rejects(
        inner('a2' + c.bs('b') + '01' + c.ts('b') + '02'),
        'cbor: found duplicate map key "b" at map element index 1',
      );
      rejects(
        c.map(['metadata', c.map(['name', c.bs('a')], ['uid', c.bs('u')], ['name', c.bs('b')])]),
        'cbor: found duplicate map key "name" at map element index 2',
        schemas.configMap,
      );
      // the outer map's keys are also read by kube's apiVersion/kind pass, which reports them first
      rejects(
        'a2' + c.bs('kind') + '01' + c.bs('kind') + '02',
        `${prefix}cbor: found duplicate map key "kind" at map element index 1`,
      );
    });

    it('text strings that are not UTF-8, a character split across chunks included', () => {
      rejects(inner('62c328'), 'cbor: invalid UTF-8 string');
      rejects(inner('7f61c361a9ff'), 'cbor: invalid UTF-8 string');
      rejects('a1' + '62c328' + '00', `${prefix}cbor: invalid UTF-8 string`, schemas.configMap);
    });

    it('map keys that cannot be strings', () => {
      rejects(inner('a10101'), 'cbor: cannot unmarshal positive integer into Go value of type string');
      rejects(inner('a1f500'), 'cbor: cannot unmarshal primitives into Go value of type string');
      rejects('a18000', `${prefix}cbor: cannot unmarshal array into Go value of type string`);
      rejects(
        'a1f93e0000',
        `${prefix}cbor: cannot unmarshal primitives into Go value of type string (map key is of type primitives and cannot be used to match struct field name)`,
        schemas.configMap,
      );
    });

    it('simple values other than false, true and null', () => {
      const unknown = (n: number) =>
        `cbor: data item of cbor type primitives is not accepted by protocol: simple value ${n} is not recognized`;
      rejects(inner('f7'), unknown(23));
      rejects(inner('e0'), unknown(0));
      rejects(inner('f820'), unknown(32));
      rejects(inner('f818'), `${prefix}cbor: invalid simple value 24 for type primitives`);
    });

    it('NaN and infinities of every width', () => {
      const refused = (what: string) =>
        `${prefix}cbor: data item of cbor type primitives is not accepted by protocol: floating-point ${what}`;
      for (const h of ['f97e00', 'fa7fc00000', 'fb7ff8000000000000']) rejects(inner(h), refused('NaN'));
      for (const h of ['f97c00', 'f9fc00', 'fa7f800000', 'fbfff0000000000000'])
        rejects(inner(h), refused('infinity'));
    });

    it('bignum tags (2 and 3)', () => {
      const refused = `${prefix}cbor: data item of cbor type tag is not accepted by protocol: bignum`;
      rejects(inner('c24101'), refused);
      rejects(inner('c34101'), refused);
      rejects(inner('d9d9f7c24101'), refused);
    });

    it('bytes after the item, and an item cut short', () => {
      rejects(c.map() + '00', `${prefix}cbor: 1 bytes of extraneous data starting at index 1`);
      rejects(
        'd9d9f7' + c.map() + 'd9d9f7a0',
        `${prefix}cbor: 4 bytes of extraneous data starting at index 4`,
      );
      rejects('a1' + c.bs('k'), `${prefix}unexpected EOF`);
      rejects('a1415a5a', `${prefix}unexpected EOF`);
      rejects('', `${prefix}EOF`);
    });

    it('malformed heads and indefinite-length items', () => {
      rejects(inner('1c'), `${prefix}cbor: invalid additional information 28 for type positive integer`);
      rejects(inner('1f'), `${prefix}cbor: invalid additional information 31 for type positive integer`);
      rejects(inner('ff'), `${prefix}cbor: unexpected "break" code`);
      rejects(
        inner('5f6161ff'),
        `${prefix}cbor: wrong element type UTF-8 text string for indefinite-length byte string`,
      );
      rejects(inner('5f5fffff'), `${prefix}cbor: indefinite-length byte string chunk is not definite-length`);
      rejects(inner('bf4161ff'), `${prefix}cbor: unexpected "break" code`);
    });

    it('more than 64 levels of nesting, more than 1024 elements or pairs', () => {
      rejects(inner('81'.repeat(63) + 'a0'), `${prefix}cbor: exceeded max nested level 64`);
      rejects('d9d9f7' + 'c6'.repeat(64) + 'a0', `${prefix}cbor: exceeded max nested level 64`);
      rejects(
        inner('990401' + '00'.repeat(1025)),
        `${prefix}cbor: exceeded max number of elements 1024 for CBOR array`,
      );
      rejects(
        inner('9f' + '00'.repeat(1025) + 'ff'),
        `${prefix}cbor: exceeded max number of elements 1024 for CBOR array`,
      );
      const pairs = Array.from({ length: 1025 }, (_, i) => c.bs(`k${i}`) + '00').join('');
      rejects('b90401' + pairs, `${prefix}cbor: exceeded max number of key-value pairs 1024 for CBOR map`);
      rejects('bf' + pairs + 'ff', `${prefix}cbor: exceeded max number of key-value pairs 1024 for CBOR map`);
    });

    it('an outer item that is not a map', () => {
      rejects('d9d9f7' + c.arr(), `${prefix}cbor: cannot unmarshal array into Go value of type v1.TypeMeta`);
      rejects(c.bs('x'), `${prefix}cbor: cannot unmarshal byte string into Go value of type v1.TypeMeta`);
    });
  });

  it('errors are 400 Status objects', () => {
    try {
      decodeCbor(hex(inner('f7')));
      assert.fail('decoded');
    } catch (e) {
      assert.deepEqual((e as ApiError).toStatus(), {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message:
          'cbor: data item of cbor type primitives is not accepted by protocol: simple value 23 is not recognized',
        reason: 'BadRequest',
        code: 400,
      });
    }
  });
});
