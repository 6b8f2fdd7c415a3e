/** The upstream's connection: a kubeconfig's, or the Pod's own (service address, mounted token and CA). */
import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { readUpstream } from './upstream-source.js';
import { upstreamTarget } from './upstream-target.js';

describe('readUpstream', () => {
  it('in-cluster: https to the service address, the mounted CA, the token file followed as it rotates', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'sa-'));
    await writeFile(path.join(dir, 'token'), 'sa-token\n');
    await writeFile(path.join(dir, 'ca.crt'), 'CA PEM');
    const c = await readUpstream({ inCluster: { host: 'fd00::1', port: '443', serviceAccountDir: dir } });
    assert.equal(c.url.href, 'https://[fd00::1]/');
    assert.equal(c.ca, 'CA PEM');
    assert.equal(c.token, undefined);
    const target = upstreamTarget(c);
    assert.deepEqual(target.upstream, {
      host: 'fd00::1',
      port: 443,
      serverName: undefined,
      ca: 'CA PEM',
      insecureSkipTLSVerify: false,
      clientCert: undefined,
    });
    assert.equal(target.prefix, '');
    assert.deepEqual(target.credentials(), { authorization: 'Bearer sa-token' });
  });

  it('a Pod without its token, or a kubeconfig that does not read, stops the start naming the flag', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'sa-'));
    await assert.rejects(
      readUpstream({ inCluster: { host: 'h', port: '1', serviceAccountDir: dir } }),
      /^Error: --upstream-in-cluster: ENOENT/,
    );
    await assert.rejects(
      readUpstream({ kubeconfig: path.join(dir, 'none') }),
      /^Error: --upstream-kubeconfig: ENOENT/,
    );
  });

  it('a kubeconfig: its server (with a path prefix), CA, client certificate or token; http refused', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'kc-'));
    const file = path.join(dir, 'config');
    const kubeconfig = (server: string) =>
      JSON.stringify({
        clusters: [
          {
            name: 'c',
            cluster: { server, 'certificate-authority-data': Buffer.from('CA').toString('base64') },
          },
        ],
        users: [{ name: 'u', user: { username: 'admin', password: 'secret' } }],
        contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
        'current-context': 'x',
      });
    await writeFile(file, kubeconfig('https://cluster.example:6443/prefix/'));
    const target = upstreamTarget(await readUpstream({ kubeconfig: file }));
    assert.equal(target.upstream.host, 'cluster.example');
    assert.equal(target.upstream.port, 6443);
    assert.equal(target.prefix, '/prefix');
    assert.deepEqual(target.credentials(), {
      authorization: `Basic ${Buffer.from('admin:secret').toString('base64')}`,
    });
    await writeFile(file, kubeconfig('http://cluster.example'));
    await assert.rejects(readUpstream({ kubeconfig: file }), /must be reached over https/);
  });
});
