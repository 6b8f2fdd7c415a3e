import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { decodeWatchEvent, FrameReader, watchEventFrame } from './watch-event.js';
import { hex, pb, rejects400, toHex } from '../../../test/support/protobuf.js';

const text = (s: string) => Buffer.from(s, 'utf8').toString('hex');

describe('watch frames', () => {
  const body = pb.envelope('v1', 'ConfigMap', pb.msg(1, pb.str(1, 'a')));

  it('a 4-byte big-endian length, then a bare WatchEvent {1: type, 2: RawExtension {1: body}}', () => {
    const message = pb.str(1, 'MODIFIED') + pb.msg(2, pb.bytes(1, body));
    const length = (message.length / 2).toString(16).padStart(8, '0');
    assert.equal(toHex(watchEventFrame('MODIFIED', hex(body))), length + message);
    assert.equal(message.slice(0, 4), '0a08', 'the event is not enveloped: its first byte is field 1');
    assert.equal(text('k8s\0'), body.slice(0, 8), 'the object inside is');
  });

  it('frames longer than 255 bytes keep their whole length', () => {
    const big = hex(pb.envelope('v1', 'ConfigMap', pb.str(1, 'x'.repeat(70000))));
    const frame = watchEventFrame('ADDED', big);
    assert.equal(Buffer.from(frame).readUInt32BE(0), frame.length - 4);
    assert.deepEqual(decodeWatchEvent(frame.subarray(4)).object, big);
  });

  it('decodes back, skipping fields it does not know', () => {
    const frame = watchEventFrame('BOOKMARK', hex(body));
    assert.deepEqual(decodeWatchEvent(frame.subarray(4)), { type: 'BOOKMARK', object: hex(body) });
    const extra = hex(pb.int(9, 1) + pb.str(1, 'ADDED') + pb.msg(2, pb.int(2, 0), pb.bytes(1, body)));
    assert.deepEqual(decodeWatchEvent(extra), { type: 'ADDED', object: hex(body) });
    assert.throws(() => decodeWatchEvent(hex(pb.int(1, 3))), rejects400(/wrong wireType = 0 for field Type/));
  });

  it('a reader splits a stream into frames however the bytes arrive', () => {
    const frames = ['ADDED', 'MODIFIED', 'DELETED'].map((t) => watchEventFrame(t, hex(body)));
    const stream = Buffer.concat(frames);
    for (const size of [1, 3, 7, stream.length]) {
      const reader = new FrameReader();
      const got: string[] = [];
      for (let i = 0; i < stream.length; i += size) {
        for (const f of reader.push(stream.subarray(i, i + size))) got.push(decodeWatchEvent(f).type);
      }
      assert.deepEqual(got, ['ADDED', 'MODIFIED', 'DELETED'], `chunks of ${size}`);
      assert.equal(reader.buffered, 0);
    }
    const partial = new FrameReader();
    assert.deepEqual(partial.push(stream.subarray(0, 10)), []);
    assert.equal(partial.buffered, 10);
  });
});
