/**
 * The client's certificate chain, read from real TLS connections (Node's HTTP/1.1 and h2 servers on
 * loopback): leaf first with the intermediates the client sent, and the very same array for every request of
 * one connection (so verifying it is cached per connection), another for another connection; nothing when
 * the client sent no certificate.
 */
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import {
  connect,
  createSecureServer,
  type ClientHttp2Session,
  type Http2SecureServer,
  type Http2ServerRequest,
} from 'node:http2';
import { Agent, createServer, request, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { clientCertificate, intermediateCa, testCa, type TestCa } from '../../test/support/certificates.js';
import type { KeyPair } from '../../src/pki/certificates.js';
import { issue } from '../../src/pki/certificates.js';
import { peerCertificates } from './peer-certificates.js';

type Chain = readonly X509Certificate[] | undefined;

describe('peerCertificates', () => {
  let ca: TestCa;
  let serving: KeyPair;
  let leaf: KeyPair;
  let mid: TestCa;
  const seen: Chain[] = [];
  let h1: Server;
  let h2: Http2SecureServer;
  const port = (s: Server | Http2SecureServer) => (s.address() as AddressInfo).port;

  before(async () => {
    ca = await testCa('ca');
    mid = await intermediateCa(ca, 'team-ca');
    leaf = await clientCertificate(mid, { cn: 'alice' });
    serving = await issue(ca.signer, {
      commonName: 'localhost',
      usage: 'server',
      notAfter: new Date(Date.now() + 3600_000),
      ipAddresses: ['127.0.0.1'],
    });
    const options = { ...serving, requestCert: true, rejectUnauthorized: false };
    const record = (req: IncomingMessage | Http2ServerRequest, res: { end(): void }) => {
      seen.push(peerCertificates(req));
      res.end();
    };
    h1 = createServer(options, record);
    h2 = createSecureServer(options, record);
    await Promise.all([h1, h2].map((s) => new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()))));
  });

  after(() => {
    h1.close();
    h2.close();
  });

  const h1Get = (agent: Agent) =>
    new Promise<void>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: port(h1), ca: ca.cert, agent, path: '/' }, (res) =>
        res.resume().on('end', resolve),
      );
      req.on('error', reject).end();
    });

  const h2Get = (session: ClientHttp2Session) =>
    new Promise<void>((resolve, reject) => {
      const stream = session.request({ ':path': '/' });
      stream.on('error', reject).on('end', resolve).resume();
      stream.end();
    });

  it('HTTP/1.1: leaf and intermediate, one array per connection', async () => {
    seen.length = 0;
    const tls = { cert: leaf.cert + mid.cert, key: leaf.key, keepAlive: true, maxSockets: 1 };
    const agent = new Agent(tls);
    await h1Get(agent);
    await h1Get(agent);
    agent.destroy();
    const other = new Agent(tls);
    await h1Get(other);
    other.destroy();
    const [first, second, third] = seen;
    assert.ok(first);
    assert.deepEqual(
      first.slice(0, 2).map((c) => c.subject),
      ['CN=alice', 'CN=team-ca'],
    );
    assert.equal(second, first);
    assert.notEqual(third, first);
  });

  it('h2: one array for every stream of a session', async () => {
    seen.length = 0;
    const session = connect(`https://127.0.0.1:${port(h2)}`, { ca: ca.cert, cert: leaf.cert, key: leaf.key });
    await h2Get(session);
    await h2Get(session);
    session.close();
    assert.equal(seen[0]?.[0].subject, 'CN=alice');
    assert.equal(seen[1], seen[0]);
  });

  it('no certificate: undefined', async () => {
    seen.length = 0;
    await h1Get(new Agent({ keepAlive: false }));
    const session = connect(`https://127.0.0.1:${port(h2)}`, { ca: ca.cert });
    await h2Get(session);
    session.close();
    assert.deepEqual(seen, [undefined, undefined]);
  });
});
