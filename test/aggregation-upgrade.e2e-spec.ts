/**
 * Upgrade requests through the host: an APIService whose backend is a small TLS server of the test (its
 * certificate for `echo-api.pgkube.svc` from a test CA, reached through an ExternalName Service for localhost).
 * The backend answers discovery (so the APIService is Available), and answers an upgrade request with
 * `101 Switching Protocols`, then echoes every byte. Through pgkube: the 101 and the echo arrive byte for byte,
 * the backend saw the caller's identity and not the caller's token, and a caller A's RBAC refuses never reaches it.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connect, type TLSSocket } from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { echoBackend, type EchoBackend } from './support/echo-backend.js';
import { eventually } from './support/eventually.js';
import { hostTokenFile } from './support/aggregation.js';
import { grant, user } from './support/rbac.js';
import { useServer } from './support/use-server.js';

const GROUP = 'echo.example.com';
const EXEC = `/apis/${GROUP}/v1/namespaces/default/sessions/s1/exec?command=cat`;

/** The backend: discovery answered (what the availability check asks), upgrades echoed. */
function discoveryBackend(): Promise<EchoBackend> {
  return echoBackend({ dnsNames: ['echo-api.pgkube.svc'] }, (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        kind: 'APIResourceList',
        apiVersion: 'v1',
        groupVersion: `${GROUP}/v1`,
        resources: [],
      }),
    );
  });
}

/** Sends an upgrade request to pgkube and collects what comes back. */
async function upgradeThrough(url: string, ca: string, token: string, after101: string): Promise<string> {
  const target = new URL(url);
  const socket: TLSSocket = connect({
    host: target.hostname,
    port: Number(target.port),
    ca,
    ALPNProtocols: ['http/1.1'],
  });
  await once(socket, 'secureConnect');
  const closed = once(socket, 'close');
  let received = '';
  socket.on('data', (c: Buffer) => {
    received += c.toString('latin1');
    if (received.startsWith('HTTP/1.1 101') && received.includes('\r\n\r\n') && !received.includes(after101))
      socket.write(after101);
  });
  socket.write(
    `POST ${EXEC} HTTP/1.1\r\nHost: ${target.host}\r\nAuthorization: Bearer ${token}\r\n` +
      'Connection: Upgrade\r\nUpgrade: SPDY/3.1\r\nX-Stream-Protocol-Version: v4.channel.k8s.io\r\n\r\n',
  );
  await eventually(
    () => received.endsWith(after101) || /^HTTP\/1\.1 [45]\d\d/.test(received),
    'an answer',
    10_000,
  );
  // a refusal closes the connection after its Status
  if (/^HTTP\/1\.1 [45]/.test(received)) await closed;
  socket.destroy();
  return received;
}

describe('upgrade requests through the host', () => {
  let backend: EchoBackend;
  const a = useServer(async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'pgkube-upgrade-'));
    return { args: [`--token-auth-file=${await hostTokenFile(dir)}`] };
  });

  before(async () => {
    backend = await discoveryBackend();
    await grant(
      a,
      'exec-sessions',
      [user('alice')],
      [{ verbs: ['create', 'get'], apiGroups: [GROUP], resources: ['sessions/exec'] }],
    );
    assert.equal(
      (await a.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'pgkube' } } })).status,
      201,
    );
    const service = await a.request('POST', '/api/v1/namespaces/pgkube/services', {
      body: {
        metadata: { name: 'echo-api' },
        spec: { type: 'ExternalName', externalName: 'localhost', ports: [{ port: backend.port }] },
      },
    });
    assert.equal(service.status, 201, service.text);
    const apiService = await a.request('POST', '/apis/apiregistration.k8s.io/v1/apiservices', {
      body: {
        metadata: { name: `v1.${GROUP}` },
        spec: {
          group: GROUP,
          version: 'v1',
          service: { namespace: 'pgkube', name: 'echo-api', port: backend.port },
          caBundle: Buffer.from(backend.ca).toString('base64'),
          groupPriorityMinimum: 1000,
          versionPriority: 15,
        },
      },
    });
    assert.equal(apiService.status, 201, apiService.text);
    await eventually(
      async () => {
        const got = await a.request('GET', `/apis/apiregistration.k8s.io/v1/apiservices/v1.${GROUP}`);
        return got.json.status?.conditions?.some(
          (c: { type: string; status: string }) => c.type === 'Available' && c.status === 'True',
        );
      },
      'Available',
      20_000,
    );
  });

  after(() => {
    backend?.close();
  });

  it('relays the 101 and then every byte both ways; the backend sees the caller, not the token', async () => {
    const received = await upgradeThrough(a.url, a.ca, 'alice-token', 'hello over SPDY');
    assert.match(received, /^HTTP\/1\.1 101 Switching Protocols\r\n/);
    assert.ok(received.endsWith('\r\n\r\nhello over SPDY'), received);
    const req = backend.seen.at(-1)!;
    assert.equal(req.url, EXEC);
    assert.equal(req.headers.upgrade, 'SPDY/3.1');
    assert.equal(req.headers['x-stream-protocol-version'], 'v4.channel.k8s.io');
    assert.equal(req.headers['x-remote-user'], 'alice');
    assert.equal(req.headers.authorization, undefined);
  });

  it('a caller A does not allow is refused by A with a Status; the backend never hears of it', async () => {
    const before = backend.seen.length;
    const received = await upgradeThrough(a.url, a.ca, 'bob-token', 'x');
    assert.match(received, /^HTTP\/1\.1 403 Forbidden\r\n/);
    assert.match(received, /"reason":"Forbidden"/);
    assert.match(received, /User \\"bob\\" cannot create resource \\"sessions\/exec\\"/);
    assert.equal(backend.seen.length, before);
  });

  it('an upgrade request for what pgkube serves itself is answered as an ordinary request, as kube does', async () => {
    const target = new URL(a.url);
    const socket: TLSSocket = connect({
      host: target.hostname,
      port: Number(target.port),
      ca: a.ca,
      ALPNProtocols: ['http/1.1'],
    });
    await once(socket, 'secureConnect');
    let received = '';
    socket.on('data', (c: Buffer) => (received += c.toString()));
    const closed = once(socket, 'close');
    socket.write(
      `GET /api/v1/namespaces/default/configmaps HTTP/1.1\r\nHost: ${target.host}\r\nAuthorization: Bearer ${a.token}\r\n` +
        'Connection: Upgrade\r\nUpgrade: websocket\r\n\r\n',
    );
    await closed;
    assert.match(received, /^HTTP\/1\.1 200 OK\r\n/);
    assert.match(received, /"kind":"ConfigMapList"/);
  });
});
