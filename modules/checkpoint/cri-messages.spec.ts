/** CRI CheckpointContainer's wire bytes, the gRPC frame around them, and the archive's name. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { archivePath, rfc3339 } from './archive.js';
import { decodeCheckpointContainerRequest, encodeCheckpointContainerRequest } from './cri-messages.js';
import { grpcFrame, grpcTimeout, grpcUnframe } from './grpc.js';

describe('CRI CheckpointContainerRequest', () => {
  it('writes container_id = 1, location = 2, timeout = 3 (int64 varint)', () => {
    const bytes = encodeCheckpointContainerRequest({ containerId: 'abc', location: '/x', timeout: 300 });
    assert.deepEqual(Buffer.from(bytes).toString('hex'), ['0a03616263', '12022f78', '18ac02'].join(''));
  });

  it('leaves zero values out (proto3) and reads back what it wrote, skipping unknown fields', () => {
    assert.equal(encodeCheckpointContainerRequest({ containerId: '', location: '', timeout: 0 }).length, 0);
    const bytes = Buffer.concat([
      Buffer.from(encodeCheckpointContainerRequest({ containerId: 'c1', location: '/l', timeout: 120 })),
      Buffer.from('2001', 'hex'), // field 4, varint 1: not CRI's (yet)
    ]);
    assert.deepEqual(decodeCheckpointContainerRequest(bytes), {
      containerId: 'c1',
      location: '/l',
      timeout: 120,
    });
  });
});

describe('gRPC framing', () => {
  it('prefixes a message with a zero flag and its 4-byte big-endian length', () => {
    assert.equal(grpcFrame(Buffer.from('hi')).toString('hex'), '00000000026869');
    assert.deepEqual(Buffer.from(grpcUnframe(Buffer.from('00000000026869', 'hex'))!), Buffer.from('hi'));
    assert.equal(grpcUnframe(Buffer.from('010000000000', 'hex')), undefined, 'compressed: not read');
    assert.equal(grpcUnframe(Buffer.from('0000000005', 'hex')), undefined, 'short');
  });

  it('sends the deadline in at most 8 digits', () => {
    assert.equal(grpcTimeout(120_000), '120000m');
    assert.equal(grpcTimeout(200_000_000), '200000S');
  });
});

describe('checkpoint archive name', () => {
  it('is checkpoint-<pod>_<namespace>-<container>-<RFC 3339 local time>.tar under <root-dir>/checkpoints', () => {
    const now = new Date();
    const name = archivePath('/var/lib/kubelet', 'default', 'web', 'app', now);
    assert.equal(name, `/var/lib/kubelet/checkpoints/checkpoint-web_default-app-${rfc3339(now)}.tar`);
    const text = rfc3339(now);
    assert.match(text, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(Z|[+-]\d\d:\d\d)$/);
    assert.equal(
      Date.parse(text),
      Math.floor(now.getTime() / 1000) * 1000,
      'the same instant, to the second',
    );
  });
});
