/**
 * HTTP/2 (h2 over TLS, chosen by ALPN) next to HTTP/1.1 on the one secure port, as kube-apiserver serves:
 * requests and their Status errors, gzip, many watches multiplexed on one connection, and kubectl over h2.
 */
import assert from 'node:assert/strict';
import { connect, type ClientHttp2Session } from 'node:http2';
import { Agent, request as httpsRequest } from 'node:https';
import { before, describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { testDatabase } from './support/database.js';
import { kubectl } from './support/kubectl.js';
import { rawRequest } from './support/raw-request.js';
import { startServer } from './support/server.js';
import { useServer } from './support/use-server.js';

const CONFIGMAPS = '/api/v1/namespaces/default/configmaps';

interface H2Response {
  status: number;
  headers: Record<string, unknown>;
  body: Buffer;
  json: any;
}

function configMap(name: string, data: Record<string, string> = {}): unknown {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data };
}

describe('HTTP/2', () => {
  let session: ClientHttp2Session;
  const s = useServer({ beforeStop: () => session?.close() });

  const open = (): Promise<ClientHttp2Session> =>
    new Promise((resolve, reject) => {
      const c = connect(s.url, { ca: s.ca });
      c.once('connect', () => resolve(c));
      c.once('error', reject);
    });

  /** One request on a session; `body` objects are sent as JSON, strings and buffers as they are. */
  const request = (
    c: ClientHttp2Session,
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<H2Response> =>
    new Promise((resolve, reject) => {
      const payload =
        body === undefined
          ? undefined
          : typeof body === 'string' || Buffer.isBuffer(body)
            ? body
            : JSON.stringify(body);
      const stream = c.request({
        ':method': method,
        ':path': path,
        authorization: `Bearer ${s.token}`,
        ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      });
      let status = 0;
      let responseHeaders: Record<string, unknown> = {};
      const chunks: Buffer[] = [];
      stream.on('response', (h) => {
        status = Number(h[':status']);
        responseHeaders = h;
      });
      stream.on('data', (d: Buffer) => chunks.push(d));
      stream.on('end', () => {
        const bytes = Buffer.concat(chunks);
        let json: unknown;
        try {
          json = JSON.parse(bytes.toString());
        } catch {
          json = undefined;
        }
        resolve({ status, headers: responseHeaders, body: bytes, json });
      });
      stream.on('error', reject);
      stream.end(payload);
    });

  before(async () => {
    session = await open();
  });

  it('is chosen by ALPN', () => {
    assert.equal(session.alpnProtocol, 'h2');
  });

  it('creates, reads, updates and deletes, with kube codes and Status bodies', async () => {
    const created = await request(session, 'POST', CONFIGMAPS, configMap('crud', { a: '1' }));
    assert.equal(created.status, 201, created.body.toString());
    assert.equal(created.json.metadata.name, 'crud');
    // HTTP/1-only headers are not allowed on h2 responses
    for (const h of ['connection', 'transfer-encoding', 'keep-alive'])
      assert.equal(created.headers[h], undefined);
    const read = await request(session, 'GET', `${CONFIGMAPS}/crud`);
    assert.equal(read.status, 200);
    assert.deepEqual(read.json.data, { a: '1' });
    const updated = await request(session, 'PUT', `${CONFIGMAPS}/crud`, { ...read.json, data: { a: '2' } });
    assert.equal(updated.status, 200, updated.body.toString());
    assert.equal(updated.json.data.a, '2');
    const deleted = await request(session, 'DELETE', `${CONFIGMAPS}/crud`);
    assert.equal(deleted.status, 200);
    const gone = await request(session, 'GET', `${CONFIGMAPS}/crud`);
    assert.equal(gone.status, 404);
    assert.equal(gone.json.kind, 'Status');
    assert.equal(gone.json.reason, 'NotFound');
    assert.equal(gone.json.details.name, 'crud');
  });

  it('reads a streamed body without Content-Type or Content-Length as JSON (kubectl create --raw -f)', async () => {
    const send = (chunks: string[]) =>
      new Promise<H2Response>((resolve, reject) => {
        const stream = session.request({
          ':method': 'POST',
          ':path': CONFIGMAPS,
          authorization: `Bearer ${s.token}`,
        });
        const got: Buffer[] = [];
        let status = 0;
        stream.on('response', (h) => (status = Number(h[':status'])));
        stream.on('data', (d: Buffer) => got.push(d));
        stream.on('end', () => {
          const body = Buffer.concat(got);
          resolve({ status, headers: {}, body, json: JSON.parse(body.toString()) });
        });
        stream.on('error', reject);
        for (const c of chunks) stream.write(c);
        stream.end();
      });
    const text = JSON.stringify(configMap('streamed', { a: '1' }));
    const created = await send([text.slice(0, 20), text.slice(20)]);
    assert.equal(created.status, 201, created.body.toString());
    assert.deepEqual(created.json.data, { a: '1' });
    const empty = await send([]);
    assert.equal(empty.status, 400);
    assert.equal(empty.json.message, 'request body must not be empty');
  });

  it('answers a body over the limit with 413 and malformed JSON with 400, as Status objects', async () => {
    const big = JSON.stringify(configMap('big', { v: 'x'.repeat(3.5 * 1024 * 1024) }));
    const tooLarge = await request(session, 'POST', CONFIGMAPS, big);
    assert.equal(tooLarge.status, 413);
    assert.equal(tooLarge.json.kind, 'Status');
    assert.equal(tooLarge.json.reason, 'RequestEntityTooLarge');
    const malformed = await request(session, 'POST', CONFIGMAPS, '{"apiVersion": "v1", "kind": ');
    assert.equal(malformed.status, 400);
    assert.equal(malformed.json.kind, 'Status');
    assert.equal(malformed.json.reason, 'BadRequest');
    const unsupported = await request(session, 'POST', CONFIGMAPS, 'x', { 'content-type': 'text/plain' });
    assert.equal(unsupported.status, 415);
    assert.equal(unsupported.json.kind, 'Status');
    // the session survives its errors
    assert.equal((await request(session, 'GET', '/version')).status, 200);
  });

  it('answers headers or a path over 16 KiB with the 431 Status HTTP/1.1 gives; many small headers are served', async () => {
    const big = 'a'.repeat(17 * 1024);
    const http1 = await rawRequest(s, 'GET', '/api', { 'x-big': big });
    for (const r of [
      await request(session, 'GET', '/api', undefined, { 'x-big': big }),
      await request(session, 'GET', `/api?x=${big}`),
      // refused before its body is read: nothing is created
      await request(session, 'POST', CONFIGMAPS, configMap('big-headers'), { 'x-big': big }),
    ]) {
      assert.equal(r.status, 431);
      assert.equal(r.headers['content-type'], 'application/json');
      assert.deepEqual(r.json, JSON.parse(http1.body.toString()));
      assert.equal(r.json.kind, 'Status');
      assert.equal(r.json.code, 431);
    }
    assert.equal((await request(session, 'GET', `${CONFIGMAPS}/big-headers`)).status, 404);
    // Node's h2 resets a stream with more than 128 headers; HTTP/1.1 serves them
    const many = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`x-h${i}`, 'v']));
    assert.equal((await request(session, 'GET', '/api', undefined, many)).status, 200);
    // the answer was the stream's: the session goes on
    assert.equal((await request(session, 'GET', '/version')).status, 200);
  });

  it('sends Warning headers', async () => {
    const r = await request(session, 'POST', `${CONFIGMAPS}?fieldValidation=Warn`, {
      ...(configMap('warned') as object),
      bogus: 1,
    });
    assert.equal(r.status, 201, r.body.toString());
    assert.equal(r.headers.warning, '299 - "unknown field \\"bogus\\""');
  });

  it('gzips a large list for a client that accepts gzip', async () => {
    const creates = Array.from({ length: 40 }, (_, i) =>
      request(
        session,
        'POST',
        '/api/v1/namespaces/kube-public/configmaps',
        configMap(`big-${i}`, { v: 'x'.repeat(4096) }),
      ),
    );
    for (const r of await Promise.all(creates)) assert.equal(r.status, 201);
    const list = await request(session, 'GET', '/api/v1/namespaces/kube-public/configmaps', undefined, {
      'accept-encoding': 'gzip',
    });
    assert.equal(list.status, 200);
    assert.equal(list.headers['content-encoding'], 'gzip');
    const items: { metadata: { name: string } }[] = JSON.parse(gunzipSync(list.body).toString()).items;
    // kube-public also holds kube-root-ca.crt
    assert.equal(items.filter((i) => i.metadata.name.startsWith('big-')).length, 40);
  });

  it('multiplexes 50 watches on one session; each gets the event written afterwards', async () => {
    const c = await open();
    try {
      const rv = (await request(c, 'GET', CONFIGMAPS)).json.metadata.resourceVersion;
      const watches = Array.from({ length: 50 }, () => {
        const stream = c.request({
          ':path': `${CONFIGMAPS}?watch=true&resourceVersion=${rv}`,
          authorization: `Bearer ${s.token}`,
        });
        let text = '';
        stream.setEncoding('utf8');
        const headers = new Promise<number>((resolve) =>
          stream.once('response', (h) => resolve(Number(h[':status']))),
        );
        const event = new Promise<any>((resolve, reject) => {
          stream.on('data', (d: string) => {
            text += d;
            // whole lines only: an event may arrive in more than one DATA frame
            const line = text
              .split('\n')
              .slice(0, -1)
              .find((l) => l.includes('"watched"'));
            if (line) resolve(JSON.parse(line));
          });
          stream.once('error', reject);
        });
        return { stream, headers, event };
      });
      // the headers arrive at once, before any event
      for (const status of await Promise.all(watches.map((w) => w.headers))) assert.equal(status, 200);
      const created = await request(c, 'POST', CONFIGMAPS, configMap('watched'));
      assert.equal(created.status, 201);
      const events = await Promise.all(watches.map((w) => w.event));
      for (const e of events) {
        assert.equal(e.type, 'ADDED');
        assert.equal(e.object.metadata.resourceVersion, created.json.metadata.resourceVersion);
      }
      // the client closes its streams: the server ends them (it no longer counts them as long-running)
      for (const w of watches) w.stream.close();
      await waitFor(
        async () => (await watchesOpen(c)) === 0,
        'the closed watches are still open on the server',
      );
    } finally {
      c.close();
    }
  });

  it('ends a watch stream after timeoutSeconds', async () => {
    const started = Date.now();
    const r = await request(session, 'GET', `${CONFIGMAPS}?watch=true&timeoutSeconds=1`);
    assert.equal(r.status, 200);
    assert.ok(Date.now() - started < 5000, `ended after ${Date.now() - started} ms`);
  });

  it('still serves HTTP/1.1 on the same port, to clients without ALPN and to those offering only http/1.1', async () => {
    const plain = await s.request('GET', `${CONFIGMAPS}`);
    assert.equal(plain.status, 200);
    const version = await new Promise<{ alpn: string | false | null; httpVersion: string; status: number }>(
      (resolve, reject) => {
        const req = httpsRequest(
          new URL('/version', s.url),
          {
            agent: new Agent({ ca: s.ca, ALPNProtocols: ['http/1.1'] }),
            headers: { authorization: `Bearer ${s.token}` },
          },
          (res) => {
            res.resume();
            res.on('end', () =>
              resolve({
                alpn: (res.socket as import('node:tls').TLSSocket).alpnProtocol,
                httpVersion: res.httpVersion,
                status: res.statusCode ?? 0,
              }),
            );
          },
        );
        req.on('error', reject);
        req.end();
      },
    );
    assert.deepEqual(version, { alpn: 'http/1.1', httpVersion: '1.1', status: 200 });
  });

  it('is what kubectl speaks (Go logs its h2 transport with GODEBUG=http2debug=1)', async () => {
    const r = await kubectl(['get', 'ns', '-o', 'name'], {
      kubeconfig: s.kubeconfig,
      env: { GODEBUG: 'http2debug=1' },
    });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /namespace\/default/);
    assert.match(r.stderr, /http2: Transport creating client conn/);
    // the server's settings as kube-apiserver's defaults, and the list itself sent as an h2 request
    assert.match(r.stderr, /received SETTINGS.*MAX_CONCURRENT_STREAMS=100\b/);
    assert.match(r.stderr, /http2: Transport encoding header ":path" = "\/api\/v1\/namespaces\?limit=500"/);
  });

  /** the server's count of open watches on configmaps (apiserver_longrunning_requests) */
  async function watchesOpen(c: ClientHttp2Session): Promise<number> {
    const text = (await request(c, 'GET', '/metrics')).body.toString();
    return text
      .split('\n')
      .filter((l) => l.startsWith('apiserver_longrunning_requests{') && /verb="WATCH"/.test(l))
      .filter((l) => /resource="configmaps"/.test(l))
      .reduce((sum, l) => sum + Number(l.split(' ').pop()), 0);
  }
});

describe('HTTP/2 at shutdown', () => {
  it('ends the watches and the sessions, and the server exits at once', async () => {
    const db = await testDatabase();
    const s = await startServer({ databaseUrl: db.url });
    try {
      const session = connect(s.url, { ca: s.ca });
      const stream = session.request({
        ':path': `${CONFIGMAPS}?watch=1`,
        authorization: `Bearer ${s.token}`,
      });
      await new Promise((resolve) => stream.once('response', resolve));
      stream.resume();
      const ended = new Promise((resolve) => stream.once('end', resolve));
      const goaway = new Promise((resolve) => session.once('goaway', resolve));
      const started = Date.now();
      // Node 20 waits for open h2 sessions on close: without a GOAWAY the idle session would hold it
      assert.equal(await s.stop(), 0);
      assert.ok(Date.now() - started < 10_000, `stopped after ${Date.now() - started} ms`);
      await ended;
      await goaway;
      session.destroy();
    } finally {
      await s.stop();
      await db.drop();
    }
  });
});

async function waitFor(check: () => Promise<boolean>, message: string): Promise<void> {
  for (let i = 0; i < 50; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(message);
}
