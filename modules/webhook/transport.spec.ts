/** The transport's bearer token from a kubeconfig's tokenFile follows the file as it rotates. */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { stringify } from 'yaml';
import { readWebhookKubeconfig } from './kubeconfig.js';
import { WebhookTransport } from './transport.js';

describe('WebhookTransport with a tokenFile', () => {
  let server: Server;
  let dir: string;
  const seen: (string | undefined)[] = [];

  before(async () => {
    server = createServer((req, res) => {
      seen.push(req.headers.authorization);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    dir = await mkdtemp(path.join(tmpdir(), 'pgkube-token-file-'));
  });
  after(() => server.close());

  it('reads the file again once the refresh period passed, not before', async () => {
    const tokenFile = path.join(dir, 'token');
    await writeFile(tokenFile, 'first\n');
    const kubeconfig = path.join(dir, 'host.kubeconfig');
    await writeFile(
      kubeconfig,
      stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [
          { name: 'c', cluster: { server: `http://127.0.0.1:${(server.address() as AddressInfo).port}` } },
        ],
        users: [{ name: 'u', user: { tokenFile: 'token' } }],
        contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
        'current-context': 'x',
      }),
    );
    const connection = await readWebhookKubeconfig(kubeconfig);
    assert.equal(connection.tokenFile, tokenFile);
    const transport = new WebhookTransport(connection, 5000, undefined, 50);
    const get = () => transport.get('/x', () => undefined);
    await get();
    await writeFile(tokenFile, 'second\n');
    await get(); // within the period: still the token read before
    await new Promise((r) => setTimeout(r, 60));
    await get();
    transport.close();
    assert.deepEqual(seen, ['Bearer first', 'Bearer first', 'Bearer second']);
  });
});
