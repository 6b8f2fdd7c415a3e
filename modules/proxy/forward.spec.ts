/**
 * The forwarder against a real HTTPS upstream (certificates from a test CA) behind a real HTTP front server:
 * headers, bodies, streaming, the client leaving, TLS names and CAs, an unreachable upstream.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { issue, type KeyPair } from '../../src/pki/certificates.js';
import { clientCertificate, testCa, type TestCa } from '../../test/support/certificates.js';
import { ApiError } from '../api/index.js';
import { forward, type ForwardedRequest } from './forward.js';
import { UpstreamAgents, type Upstream } from './upstream.js';

let ca: TestCa;
let serving: KeyPair;
let upstream: HttpsServer;
let upstreamPort: number;
/** what the upstream saw of the last request */
let seen: {
  method?: string;
  url?: string;
  headers: IncomingMessage['headers'];
  body: string;
  clientCn?: string;
};
/** the upstream's watch streams, to end or observe */
const streams = new Set<ServerResponse>();
let streamClosed: Promise<void> = Promise.resolve();
const agents = new UpstreamAgents();

function listen(server: Server | HttpsServer): Promise<number> {
  server.listen(0, '127.0.0.1');
  return once(server, 'listening').then(() => (server.address() as AddressInfo).port);
}

/** A front server that forwards every request as the test says, and answers 503 when forward rejects. */
async function front(to: () => Upstream, shape?: (r: ForwardedRequest) => ForwardedRequest) {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const fwd: ForwardedRequest = {
        method: req.method!,
        path: req.url!,
        headers: req.headers,
        body: chunks.length ? Buffer.concat(chunks) : undefined,
      };
      forward(agents, to(), shape ? shape(fwd) : fwd, res).catch((e: ApiError) => {
        res.writeHead(e.code, { 'content-type': 'application/json' });
        res.end(JSON.stringify(e.toStatus()));
      });
    });
  });
  const port = await listen(server);
  return { server, port };
}

function send(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
) {
  return new Promise<{ status: number; headers: IncomingMessage['headers']; body: string }>(
    (resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, method, path, headers }, (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
      });
      req.on('error', reject);
      req.end(body);
    },
  );
}

before(async () => {
  ca = await testCa('backend-ca');
  serving = await issue(ca.signer, {
    commonName: 'backend',
    usage: 'server',
    notAfter: new Date(Date.now() + 3600_000),
    dnsNames: ['backend.ns.svc'],
  });
  upstream = createHttpsServer(
    { cert: serving.cert, key: serving.key, requestCert: true, rejectUnauthorized: false },
    (req, res) => {
      const cert = (req.socket as import('node:tls').TLSSocket).getPeerCertificate();
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen = {
          method: req.method,
          url: req.url,
          headers: req.headers,
          body,
          clientCn: cert?.subject?.CN as string | undefined,
        };
        if (req.url?.startsWith('/watch')) {
          res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
          res.write('{"type":"ADDED"}\n');
          streams.add(res);
          streamClosed = once(res, 'close').then(() => undefined);
          return;
        }
        res.writeHead(201, {
          'content-type': 'application/json',
          'x-backend': 'yes',
          connection: 'keep-alive',
        });
        res.end(JSON.stringify({ ok: true }));
      });
    },
  );
  upstreamPort = await listen(upstream);
});

after(() => {
  agents.close();
  upstream.closeAllConnections();
  upstream.close();
});

const trusted = (): Upstream => ({
  host: '127.0.0.1',
  port: upstreamPort,
  serverName: 'backend.ns.svc',
  ca: ca.cert,
});

describe('forward', () => {
  it('passes method, path, query, body and end-to-end headers; drops hop-by-hop and chosen ones; adds its own', async () => {
    const f = await front(trusted, (r) => ({
      ...r,
      dropHeaders: (name) => name === 'authorization' || name.startsWith('x-remote-'),
      extraHeaders: { 'X-Remote-User': 'alice', 'X-Remote-Group': ['dev', 'system:authenticated'] },
    }));
    const r = await send(
      f.port,
      'POST',
      '/apis/widgets.example.com/v1/namespaces/a/widgets?dryRun=All',
      {
        'content-type': 'application/json',
        authorization: 'Bearer secret',
        'x-remote-user': 'mallory',
        'proxy-connection': 'x',
        accept: 'application/json',
      },
      '{"kind":"Widget"}',
    );
    f.server.close();
    assert.equal(r.status, 201);
    assert.equal(r.headers['x-backend'], 'yes');
    assert.equal(r.body, '{"ok":true}');
    assert.equal(seen.method, 'POST');
    assert.equal(seen.url, '/apis/widgets.example.com/v1/namespaces/a/widgets?dryRun=All');
    assert.equal(seen.body, '{"kind":"Widget"}');
    assert.equal(seen.headers['content-type'], 'application/json');
    assert.equal(seen.headers.accept, 'application/json');
    assert.equal(seen.headers.authorization, undefined);
    assert.equal(seen.headers['proxy-connection'], undefined);
    assert.equal(seen.headers['x-remote-user'], 'alice');
    assert.equal(seen.headers['x-remote-group'], 'dev, system:authenticated');
    assert.equal(seen.headers.host, `127.0.0.1:${upstreamPort}`);
  });

  it('presents the client certificate it is given', async () => {
    const proxyCa = await testCa('front-proxy');
    const client = await clientCertificate(proxyCa, { cn: 'front-proxy-client' });
    const f = await front(() => ({ ...trusted(), clientCert: client }));
    assert.equal((await send(f.port, 'GET', '/x')).status, 201);
    f.server.close();
    assert.equal(seen.clientCn, 'front-proxy-client');
  });

  it('streams an answer as it comes and closes the upstream request when the client leaves', async () => {
    const f = await front(trusted);
    const req = request({ host: '127.0.0.1', port: f.port, path: '/watch' });
    req.end();
    const [res] = (await once(req, 'response')) as [IncomingMessage];
    assert.equal(res.statusCode, 200);
    const [first] = (await once(res, 'data')) as [Buffer];
    assert.equal(first.toString(), '{"type":"ADDED"}\n');
    const [upstreamSide] = [...streams].slice(-1);
    upstreamSide.write('{"type":"MODIFIED"}\n');
    const [second] = (await once(res, 'data')) as [Buffer];
    assert.equal(second.toString(), '{"type":"MODIFIED"}\n');
    req.destroy();
    await streamClosed;
    f.server.close();
  });

  it('refuses a serving certificate for another name, or from another CA: 503 before any answer', async () => {
    const other = await testCa('other');
    for (const target of [
      { ...trusted(), serverName: 'other.ns.svc' },
      { ...trusted(), ca: other.cert },
    ]) {
      const f = await front(() => target);
      const r = await send(f.port, 'GET', '/x');
      f.server.close();
      assert.equal(r.status, 503);
      assert.equal(JSON.parse(r.body).reason, 'ServiceUnavailable');
    }
    // insecureSkipTLSVerify trusts anything
    const f = await front(() => ({ ...trusted(), ca: other.cert, insecureSkipTLSVerify: true }));
    assert.equal((await send(f.port, 'GET', '/x')).status, 201);
    f.server.close();
  });

  it('an upstream that is not listening is a 503 Status', async () => {
    const closed = createServer();
    const port = await listen(closed);
    closed.close();
    const f = await front(() => ({ ...trusted(), port }));
    const r = await send(f.port, 'GET', '/x');
    f.server.close();
    assert.equal(r.status, 503);
    assert.deepEqual(JSON.parse(r.body).message, 'service unavailable');
  });
});
