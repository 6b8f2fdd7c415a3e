/**
 * A watcher that does not read is closed once the server holds more than its bound (16 MiB) of unsent events
 * for it, over HTTP/1.1 (bytes queued on its socket) and over h2 (bytes queued on its stream, blocked by the
 * client's flow-control window), while a watcher that reads gets every event.
 */
import assert from 'node:assert/strict';
import { connect as h2Connect } from 'node:http2';
import { describe, it } from 'node:test';
import { connect as tlsConnect } from 'node:tls';
import { type TestServer } from './support/server.js';
import { eventually } from './support/eventually.js';
import { useServer } from './support/use-server.js';
import { openWatch } from './support/watch-client.js';

const base = '/api/v1/namespaces/default/configmaps';
/** 40 events of ~900 KB: past the 16 MiB bound plus what the kernel's socket buffers take on loopback */
const OBJECTS = 40;
const VALUE = 'x'.repeat(900 * 1024);

/** Bytes of a stream that was not read while the objects were written, read afterwards to its end. */
interface Paused {
  resume(): Promise<number>;
}

function pausedHttp1(s: TestServer, path: string): Promise<Paused> {
  const url = new URL(s.url);
  return new Promise((resolve, reject) => {
    const socket = tlsConnect({
      host: url.hostname,
      port: Number(url.port),
      ca: s.ca,
      servername: 'localhost',
      ALPNProtocols: ['http/1.1'],
    });
    socket.once('secureConnect', () =>
      socket.write(`GET ${path} HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${s.token}\r\n\r\n`),
    );
    socket.once('error', reject);
    socket.once('data', (head: Buffer) => {
      if (!head.toString('latin1').startsWith('HTTP/1.1 200')) reject(new Error(head.toString()));
      socket.pause();
      resolve({
        resume: () =>
          new Promise((done, fail) => {
            let bytes = 0;
            let tail = '';
            socket.on('data', (d: Buffer) => {
              bytes += d.length;
              tail = (tail + d.toString('latin1')).slice(-16);
              // the chunked body's last chunk: the server ended the watch
              if (tail.endsWith('\r\n0\r\n\r\n')) {
                socket.destroy();
                done(bytes);
              }
            });
            socket.once('end', () => fail(new Error('connection ended without the last chunk')));
            socket.resume();
          }),
      });
    });
  });
}

function pausedH2(s: TestServer, path: string): Promise<Paused & { close(): void }> {
  return new Promise((resolve, reject) => {
    // Node's default stream window (64 KiB): the server must queue the rest
    const session = h2Connect(s.url, { ca: s.ca });
    const stream = session.request({ ':path': path, authorization: `Bearer ${s.token}` });
    stream.once('error', reject);
    stream.once('response', (h) => {
      if (h[':status'] !== 200) reject(new Error(`status ${h[':status']}`));
      stream.pause();
      resolve({
        close: () => session.close(),
        resume: () =>
          new Promise((done) => {
            let bytes = 0;
            stream.on('data', (d: Buffer) => (bytes += d.length));
            stream.once('end', () => done(bytes));
            stream.resume();
          }),
      });
    });
  });
}

/** a stream that never ends was never closed */
function within<T>(p: Promise<T>): Promise<T> {
  return Promise.race([
    p,
    new Promise<T>((_, reject) =>
      setTimeout(() => reject(new Error('the watch was not closed')), 20_000).unref(),
    ),
  ]);
}

describe('a watcher that does not read', () => {
  const s = useServer();

  it('is closed at the bound over HTTP/1.1 and over h2; a reading watcher gets every event', async () => {
    // the root CA publisher's ConfigMap is written soon after the start: not one of this test's events
    await eventually(
      async () => (await s.request('GET', `${base}/kube-root-ca.crt`)).status === 200,
      'kube-root-ca.crt published',
    );
    const rv = (await s.request('GET', base)).json.metadata.resourceVersion;
    const path = `${base}?watch=1&resourceVersion=${rv}`;
    const http1 = await pausedHttp1(s, path);
    const h2 = await pausedH2(s, path);
    const reader = await openWatch(s, path);
    for (let i = 0; i < OBJECTS; i++) {
      const r = await s.request('POST', base, {
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `big-${i}` }, data: { v: VALUE } },
      });
      assert.equal(r.status, 201, r.text);
      // the reader keeps up, so only the paused watchers fall behind
      assert.equal((await reader.next(20_000)).object.metadata.name, `big-${i}`);
    }
    reader.close();
    const total = OBJECTS * VALUE.length;
    // each paused watcher's stream ends without every event: it was closed, not merely slow
    const [h1Bytes, h2Bytes] = await Promise.all([within(http1.resume()), within(h2.resume())]);
    h2.close();
    assert.ok(h1Bytes > 16 * 1024 * 1024 && h1Bytes < total, `HTTP/1.1: ${h1Bytes} of ${total} bytes`);
    assert.ok(h2Bytes > 16 * 1024 * 1024 && h2Bytes < total, `h2: ${h2Bytes} of ${total} bytes`);
  });
});
