import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../api/index.js';
import { WireReader, WireType, WireWriter } from './wire.js';

const hex = (s: string) => Uint8Array.from(Buffer.from(s.replace(/\s+/g, ''), 'hex'));
const toHex = (b: Uint8Array) => Buffer.from(b).toString('hex');

function badRequest(message: string | RegExp) {
  return (e: unknown) => {
    assert.ok(e instanceof ApiError, `not an ApiError: ${String(e)}`);
    assert.equal(e.code, 400);
    if (typeof message === 'string') assert.equal(e.message, message);
    else assert.match(e.message, message);
    return true;
  };
}

describe('varints', () => {
  const cases: { value: number | bigint; bytes: string }[] = [
    { value: 0, bytes: '00' },
    { value: 1, bytes: '01' },
    { value: 127, bytes: '7f' },
    { value: 128, bytes: '8001' },
    { value: 404, bytes: '9403' },
    { value: 2 ** 31, bytes: '8080808008' },
    // negative int32/int64 are sign-extended to ten bytes, as Go's encodeVarint(uint64(v)) writes them
    { value: -1, bytes: 'ffffffffffffffffff01' },
    { value: -62135596800n, bytes: '8092b8c398feffffff01' },
  ];
  for (const c of cases) {
    it(`${c.value} ↔ ${c.bytes}`, () => {
      const w = new WireWriter();
      w.varint(c.value);
      assert.equal(toHex(w.finish()), c.bytes);
      const r = new WireReader(hex(c.bytes));
      assert.equal(BigInt.asIntN(64, r.varint()), BigInt(c.value));
      assert.ok(r.done());
    });
  }
  it('an 11-byte varint overflows', () => {
    assert.throws(
      () => new WireReader(hex('ffffffffffffffffffff01')).varint(),
      badRequest('proto: integer overflow'),
    );
  });
  it('a cut varint is an unexpected EOF', () => {
    assert.throws(() => new WireReader(hex('ff')).varint(), badRequest('unexpected EOF'));
  });
});

describe('WireReader', () => {
  it('reads tags and rejects field 0', () => {
    assert.deepEqual(new WireReader(hex('8a01')).tag(), { field: 17, wireType: 2 });
    assert.throws(() => new WireReader(hex('02')).tag(), badRequest('proto: illegal tag 0 (wire type 2)'));
  });
  it('a length past the end is an unexpected EOF', () => {
    assert.throws(() => new WireReader(hex('0561')).string(), badRequest('unexpected EOF'));
  });
  it('a length never reads past the reader’s own end', () => {
    const r = new WireReader(hex('03616263'), 0, 3);
    assert.throws(() => r.string(), badRequest('unexpected EOF'));
  });
  it('skips every wire type, groups included', () => {
    // varint, fixed64, bytes, group {varint}, fixed32, then a varint field 9
    const r = new WireReader(hex('0896 01 11 0102030405060708 1a 02 6869 23 0801 24 2d 01020304 48 07'));
    for (let i = 0; i < 5; i++) {
      const t = r.tag();
      r.skip(t.wireType);
    }
    assert.deepEqual(r.tag(), { field: 9, wireType: WireType.Varint });
    assert.equal(r.varint(), 7n);
  });
  it('rejects wire types 6 and 7 and a stray end group', () => {
    assert.throws(() => new WireReader(hex('')).skip(6), badRequest('proto: illegal wireType 6'));
    assert.throws(() => new WireReader(hex('')).skip(7), badRequest('proto: illegal wireType 7'));
    assert.throws(() => new WireReader(hex('')).skip(4), badRequest('proto: unexpected end group'));
  });
  it('an unterminated group is an unexpected EOF', () => {
    assert.throws(() => new WireReader(hex('0801')).skip(3), badRequest('unexpected EOF'));
  });
});

describe('WireWriter', () => {
  it('writes strings, bytes, doubles and nested messages', () => {
    const w = new WireWriter();
    w.string(1, 'hé');
    w.bytes(2, hex('00ff'));
    w.double(3, 1.5);
    w.message(4, (m) => m.message(1, (n) => n.string(2, 'x')));
    assert.equal(
      toHex(w.finish()),
      '0a0368c3a9' + '120200ff' + '19000000000000f83f' + '2205' + '0a03' + '120178',
    );
  });
  it('grows past its first buffer', () => {
    const w = new WireWriter();
    const big = 'x'.repeat(1000);
    w.string(1, big);
    w.string(2, big);
    const out = w.finish();
    assert.equal(out.length, 2 * (1 + 2 + 1000));
    assert.equal(out[1003], 0x12);
  });
});
