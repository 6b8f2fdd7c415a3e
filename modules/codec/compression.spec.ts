import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { acceptsGzip, GZIP_THRESHOLD_BYTES, gzipIfLarge } from './compression.js';

describe('response compression', () => {
  it('reads Accept-Encoding as kube clients send it', () => {
    assert.equal(acceptsGzip('gzip'), true);
    assert.equal(acceptsGzip('deflate, gzip;q=0.5'), true);
    assert.equal(acceptsGzip(['br', 'GZIP']), true);
    assert.equal(acceptsGzip('gzip;q=0'), false);
    assert.equal(acceptsGzip('identity, deflate'), false);
    assert.equal(acceptsGzip(undefined), false);
    assert.equal(acceptsGzip(''), false);
  });

  it('compresses only bodies over 128 KiB, readably', () => {
    assert.equal(gzipIfLarge(Buffer.alloc(GZIP_THRESHOLD_BYTES, 'a')), undefined);
    const big = Buffer.from('{"items":[' + '"0123456789abcdef",'.repeat(10_000) + '"x"]}');
    const gz = gzipIfLarge(big)!;
    assert.ok(gz.length < big.length / 10);
    assert.deepEqual(gunzipSync(gz), big);
  });
});
