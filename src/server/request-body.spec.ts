import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import type { IncomingMessage } from 'node:http';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../modules/api/index.js';
import { requestBodyParser } from './request-body.js';

function parse(
  url: string,
  chunks: string[],
  headers: Record<string, string> = {},
): Promise<{ err: Error | null; body?: unknown; payload: PassThrough }> {
  const payload = new PassThrough();
  const parser = requestBodyParser(10, (_m, u) => u.startsWith('/apis/widgets.example.com/'));
  return new Promise((resolve) => {
    parser(
      { method: 'POST', url, headers } as FastifyRequest,
      payload as unknown as IncomingMessage,
      (err, body) => resolve({ err, body, payload }),
    );
    for (const c of chunks) payload.write(c);
    payload.end();
  });
}

describe('requestBodyParser', () => {
  it('reads a body whole', async () => {
    const r = await parse('/api/v1/configmaps', ['{"a":', '1}'], { 'content-length': '7' });
    assert.equal(r.err, null);
    assert.deepEqual(r.body, Buffer.from('{"a":1}'));
  });

  it('refuses a body over the limit, declared or sent: 413', async () => {
    for (const [chunks, headers] of [
      [['x'], { 'content-length': '11' }],
      [['123456', '789012'], {}],
    ] as const) {
      const r = await parse('/api/v1/configmaps', [...chunks], headers);
      assert.ok(r.err instanceof ApiError);
      assert.equal(r.err.code, 413);
      assert.equal(r.err.message, 'Request entity too large: limit is 10');
    }
  });

  it('refuses a body shorter than its Content-Length: 400', async () => {
    const r = await parse('/api/v1/configmaps', ['abc'], { 'content-length': '5' });
    assert.ok(r.err instanceof ApiError);
    assert.equal(r.err.code, 400);
  });

  it('leaves the body of a request another server handles unread, whatever its size', async () => {
    const r = await parse('/apis/widgets.example.com/v1/namespaces/a/widgets', [], {
      'content-length': '100',
    });
    assert.equal(r.err, null);
    assert.equal(r.body, r.payload);
  });
});
