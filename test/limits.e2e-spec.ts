/**
 * kube's request limits on the real server: --request-timeout (504 once, watches exempt, `?timeout=`), the
 * receive deadline for slow senders (HTTP/1.1 headers and body, h2 body), --min-request-timeout for watches
 * without timeoutSeconds, and --max-requests-inflight / --max-mutating-requests-inflight (429 with Retry-After,
 * system:masters exempt, watches not counted).
 */
import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { connect as h2Connect } from 'node:http2';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it, before } from 'node:test';
import type { TLSSocket } from 'node:tls';
import { setTimeout as sleep } from 'node:timers/promises';
import { http1Socket } from './support/raw-request.js';
import { everything, grant, group } from './support/rbac.js';
import { useServer } from './support/use-server.js';
import { openWatch } from './support/watch-client.js';

const cms = '/api/v1/namespaces/default/configmaps';

/** A GET that blocks in the handler: it waits (3 s) for the watch cache to reach a revision far ahead. */
const blockingGet = `${cms}/nothing?resourceVersion=999999999`;

/** Everything the server sends on the socket until it closes it (or `maxMs` passes), and when that was. */
function readUntilClosed(
  socket: TLSSocket,
  maxMs: number,
): Promise<{ text: string; closedAfterMs?: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    let text = '';
    socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
    socket.on('error', () => {});
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ text });
    }, maxMs);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve({ text, closedAfterMs: performance.now() - started });
    });
  });
}

describe('--request-timeout and slow senders', () => {
  const s = useServer({ args: ['--request-timeout=1s'] });

  it('answers a request still running at its deadline with 504 Timeout', async () => {
    const started = performance.now();
    const r = await s.request('GET', blockingGet);
    const took = performance.now() - started;
    assert.equal(r.status, 504, r.text);
    assert.equal(r.json.kind, 'Status');
    assert.equal(r.json.reason, 'Timeout');
    assert.equal(r.json.message, 'Timeout: request did not complete within the allotted timeout');
    // the handler's own answer (its 3 s wait) would come later and say "Too large resource version"
    assert.ok(took >= 900 && took < 2500, `answered after ${took} ms`);
  });

  it('takes a shorter ?timeout= from the request, caps a longer one, and refuses a malformed one', async () => {
    let started = performance.now();
    const short = await s.request('GET', `${blockingGet}&timeout=200ms`);
    assert.equal(short.status, 504);
    assert.ok(performance.now() - started < 800, `answered after ${performance.now() - started} ms`);
    started = performance.now();
    const long = await s.request('GET', `${blockingGet}&timeout=30s`);
    assert.equal(long.status, 504);
    assert.equal(long.json.message, 'Timeout: request did not complete within the allotted timeout');
    assert.ok(performance.now() - started < 2500, `answered after ${performance.now() - started} ms`);
    const bad = await s.request('GET', `${cms}?timeout=soon`);
    assert.equal(bad.status, 400);
    assert.equal(
      bad.json.message,
      'invalid timeout specified in the request URL - time: invalid duration "soon"',
    );
  });

  it('answers once: the handler finishing later writes nothing, and the connection serves on', async () => {
    const socket = await http1Socket(s);
    const host = new URL(s.url).host;
    const auth = `Authorization: Bearer ${s.token}`;
    let text = '';
    socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
    socket.write(`GET ${blockingGet} HTTP/1.1\r\nHost: ${host}\r\n${auth}\r\n\r\n`);
    // past the handler's own end (3 s)
    await sleep(3600);
    assert.equal(text.match(/HTTP\/1\.1 /g)?.length, 1, text);
    assert.match(text, /^HTTP\/1\.1 504 /);
    text = '';
    socket.write(`GET /version HTTP/1.1\r\nHost: ${host}\r\n${auth}\r\n\r\n`);
    for (let i = 0; i < 50 && !text.includes('gitVersion'); i++) await sleep(50);
    assert.match(text, /^HTTP\/1\.1 200 /);
    socket.destroy();
  });

  it('does not time out a watch', async () => {
    const w = await openWatch(s, `${cms}?watch=1`);
    assert.equal(w.status, 200);
    await sleep(1800);
    assert.equal(w.finished(), false);
    const created = await s.request('POST', cms, {
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'after-deadline' } },
    });
    assert.equal(created.status, 201);
    let event = await w.next(5000);
    while (event.object.metadata?.name !== 'after-deadline') event = await w.next(5000);
    assert.equal(event.type, 'ADDED');
    w.close();
  });

  it('closes an HTTP/1.1 connection whose request body stops halfway, with 408', async () => {
    const socket = await http1Socket(s);
    const body = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'slow' } });
    socket.write(
      `POST ${cms} HTTP/1.1\r\nHost: ${new URL(s.url).host}\r\nAuthorization: Bearer ${s.token}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 20)}`,
    );
    const { text, closedAfterMs } = await readUntilClosed(socket, 5000);
    assert.ok(closedAfterMs !== undefined, 'the server did not close the connection');
    assert.ok(closedAfterMs >= 900 && closedAfterMs < 3000, `closed after ${closedAfterMs} ms`);
    assert.match(text, /^HTTP\/1\.1 408 /);
    assert.equal((await s.request('GET', `${cms}/slow`)).status, 404);
  });

  it('closes an HTTP/1.1 connection whose headers stop halfway', async () => {
    const socket = await http1Socket(s);
    socket.write(`GET ${cms} HTTP/1.1\r\nHost: ${new URL(s.url).host}\r\nAuthoriz`);
    const { closedAfterMs } = await readUntilClosed(socket, 5000);
    assert.ok(closedAfterMs !== undefined, 'the server did not close the connection');
    assert.ok(closedAfterMs >= 900 && closedAfterMs < 3000, `closed after ${closedAfterMs} ms`);
  });

  it('answers 408 and resets an h2 stream whose body stops halfway; the session serves on', async () => {
    const session = h2Connect(s.url, { ca: s.ca });
    try {
      const stream = session.request({
        ':method': 'POST',
        ':path': cms,
        authorization: `Bearer ${s.token}`,
        'content-type': 'application/json',
        'content-length': '100',
      });
      stream.write('{"apiVersion":"v1",');
      const started = performance.now();
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        let status = 0;
        let body = '';
        stream.on('response', (h) => (status = Number(h[':status'])));
        stream.on('data', (d: Buffer) => (body += d.toString()));
        stream.on('close', () => resolve({ status, body }));
        stream.on('error', reject);
        setTimeout(() => reject(new Error('no answer within 5 s')), 5000).unref();
      });
      const took = performance.now() - started;
      assert.equal(answer.status, 408);
      const status = JSON.parse(answer.body);
      assert.equal(status.kind, 'Status');
      assert.equal(status.code, 408);
      assert.ok(took >= 900 && took < 3000, `answered after ${took} ms`);
      const next = session.request({ ':path': '/version', authorization: `Bearer ${s.token}` });
      const code = await new Promise<number>((resolve) =>
        next.on('response', (h) => resolve(Number(h[':status']))),
      );
      next.resume();
      assert.equal(code, 200);
    } finally {
      session.close();
    }
  });
});

describe('--min-request-timeout', () => {
  const s = useServer({ args: ['--min-request-timeout=1'] });

  it('ends a watch without timeoutSeconds after a random time in [min, 2·min)', async () => {
    const started = performance.now();
    const w = await openWatch(s, `${cms}?watch=1`);
    assert.equal(w.status, 200);
    await w.ended;
    const took = performance.now() - started;
    assert.ok(took >= 950 && took < 2600, `ended after ${took} ms`);
  });

  it('keeps timeoutSeconds when given', async () => {
    const w = await openWatch(s, `${cms}?watch=1&timeoutSeconds=3`);
    await sleep(2200);
    assert.equal(w.finished(), false);
    await w.ended;
    w.close();
  });
});

describe('--max-requests-inflight, --max-mutating-requests-inflight', () => {
  const s = useServer(async () => {
    const tokens = path.join(await mkdtemp(path.join(tmpdir(), 'pgkube-tokens-')), 'tokens.csv');
    await writeFile(tokens, 'alice-token,alice,1001,"devs"\n');
    return {
      args: [
        `--token-auth-file=${tokens}`,
        '--max-mutating-requests-inflight=1',
        '--max-requests-inflight=1',
      ],
    };
  });
  const configMap = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } });

  // this file proves who a credential makes the caller; what that caller may do is not its subject
  before(() => grant(s, 'authenticated-all', [group('system:authenticated')], everything));

  it('answers 429 with Retry-After: 1 to writes past the limit', async () => {
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        s.request('POST', cms, { body: configMap(`alice-${i}`), token: 'alice-token' }),
      ),
    );
    const refused = answers.filter((r) => r.status === 429);
    assert.ok(refused.length > 0, 'no write was refused');
    assert.ok(
      answers.every((r) => r.status === 201 || r.status === 429),
      answers.map((r) => r.status).join(),
    );
    for (const r of refused) {
      assert.equal(r.headers['retry-after'], '1');
      assert.equal(r.json.kind, 'Status');
      assert.equal(r.json.code, 429);
      assert.equal(r.json.reason, 'TooManyRequests');
      assert.equal(r.json.message, 'Too many requests, please try again later.');
      assert.equal(r.json.details.retryAfterSeconds, 1);
    }
  });

  it('answers 429 to reads past the limit', async () => {
    const answers = await Promise.all(
      Array.from({ length: 40 }, () => s.request('GET', cms, { token: 'alice-token' })),
    );
    assert.ok(
      answers.some((r) => r.status === 429),
      'no read was refused',
    );
    assert.ok(answers.every((r) => r.status === 200 || r.status === 429));
  });

  it('never refuses system:masters', async () => {
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => s.request('POST', cms, { body: configMap(`admin-${i}`) })),
    );
    assert.deepEqual(
      answers.map((r) => r.status),
      answers.map(() => 201),
    );
  });

  it('does not count watches', async () => {
    const alice = { url: s.url, ca: s.ca, token: 'alice-token' };
    const watches = await Promise.all([1, 2, 3].map(() => openWatch(alice, `${cms}?watch=1`)));
    assert.deepEqual(
      watches.map((w) => w.status),
      [200, 200, 200],
    );
    for (let i = 0; i < 5; i++)
      assert.equal((await s.request('GET', `${cms}/admin-0`, { token: 'alice-token' })).status, 200);
    assert.equal(
      (await s.request('POST', cms, { body: configMap('alice-after'), token: 'alice-token' })).status,
      201,
    );
    for (const w of watches) w.close();
  });
});
