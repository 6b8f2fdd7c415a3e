/** The token webhook's kubeconfig: what client-go would read from it, and the files it refuses. */
import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { stringify } from 'yaml';
import { readWebhookKubeconfig } from './kubeconfig.js';
import { bearerOf } from './transport.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');

function kubeconfig(cluster: Record<string, unknown>, user?: Record<string, unknown>, current = 'hook') {
  return {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'c', cluster }],
    users: user ? [{ name: 'u', user }] : [],
    contexts: [{ name: 'hook', context: { cluster: 'c', ...(user ? { user: 'u' } : {}) } }],
    'current-context': current,
  };
}

describe('readWebhookKubeconfig', () => {
  let dir: string;
  const write = async (config: unknown, name = 'hook.kubeconfig') => {
    const file = path.join(dir, name);
    await writeFile(file, typeof config === 'string' ? config : stringify(config));
    return file;
  };
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'pgkube-webhook-kubeconfig-'));
    await writeFile(path.join(dir, 'ca.pem'), 'CA FILE');
    await writeFile(path.join(dir, 'client.pem'), 'CERT FILE');
    await writeFile(path.join(dir, 'client-key.pem'), 'KEY FILE');
    await writeFile(path.join(dir, 'token'), 'file-token\n');
  });

  it('reads files relative to the kubeconfig: CA, client certificate and key, token file', async () => {
    const c = await readWebhookKubeconfig(
      await write(
        kubeconfig(
          { server: 'https://127.0.0.1:9443/authenticate', 'certificate-authority': 'ca.pem' },
          { 'client-certificate': 'client.pem', 'client-key': 'client-key.pem', tokenFile: 'token' },
        ),
      ),
    );
    assert.equal(c.url.href, 'https://127.0.0.1:9443/authenticate');
    assert.equal(c.ca, 'CA FILE');
    assert.equal(c.cert, 'CERT FILE');
    assert.equal(c.key, 'KEY FILE');
    // the token file is followed as it rotates: what goes out is its content now
    assert.equal(c.token, undefined);
    assert.equal(c.tokenFile, path.join(dir, 'token'));
    assert.equal(bearerOf(c), 'file-token');
    assert.equal(c.insecureSkipTlsVerify, false);
  });

  it('reads inline data, tls-server-name, basic credentials; a context without a user sends none', async () => {
    const c = await readWebhookKubeconfig(
      await write(
        kubeconfig(
          {
            server: 'https://hook',
            'certificate-authority-data': b64('CA'),
            'tls-server-name': 'hook.example',
          },
          {
            'client-certificate-data': b64('CERT'),
            'client-key-data': b64('KEY'),
            username: 'pgkube',
            password: 'pw',
          },
        ),
      ),
    );
    assert.deepEqual([c.ca, c.cert, c.key, c.serverName], ['CA', 'CERT', 'KEY', 'hook.example']);
    assert.deepEqual(c.basic, { username: 'pgkube', password: 'pw' });
    const bare = await readWebhookKubeconfig(await write(kubeconfig({ server: 'http://127.0.0.1:1/' })));
    assert.equal(bare.token, undefined);
    assert.equal(bare.basic, undefined);
    assert.equal(bare.cert, undefined);
  });

  const refused: { name: string; config: unknown; error: RegExp }[] = [
    {
      name: 'no current context',
      config: { ...kubeconfig({ server: 'https://h' }), 'current-context': '' },
      error: /current-context is not set/,
    },
    {
      name: 'a current context that is not there',
      config: kubeconfig({ server: 'https://h' }, undefined, 'x'),
      error: /context was not found for specified context: x/,
    },
    { name: 'no server', config: kubeconfig({}), error: /cluster has no server defined/ },
    { name: 'a server that is no URL', config: kubeconfig({ server: 'not a url' }), error: /is not a URL/ },
    { name: 'another scheme', config: kubeconfig({ server: 'ftp://h' }), error: /neither https nor http/ },
    {
      name: 'an exec plugin',
      config: kubeconfig({ server: 'https://h' }, { exec: { command: 'x' } }),
      error: /user exec is not supported/,
    },
    {
      name: 'a proxy',
      config: kubeconfig({ server: 'https://h', 'proxy-url': 'http://p' }),
      error: /cluster proxy-url is not supported/,
    },
    {
      name: 'a certificate without its key',
      config: kubeconfig({ server: 'https://h' }, { 'client-certificate-data': b64('C') }),
      error: /must be given together/,
    },
    {
      name: 'a CA with insecure-skip-tls-verify',
      config: kubeconfig({
        server: 'https://h',
        'certificate-authority-data': b64('C'),
        'insecure-skip-tls-verify': true,
      }),
      error: /with the insecure flag is not allowed/,
    },
    {
      name: 'a token and a password',
      config: kubeconfig({ server: 'https://h' }, { token: 't', username: 'u', password: 'p' }),
      error: /not both/,
    },
    { name: 'not a kubeconfig at all', config: '- a\n- b\n', error: /not a kubeconfig/ },
  ];
  for (const c of refused) {
    it(`refuses ${c.name}`, async () => {
      await assert.rejects(async () => readWebhookKubeconfig(await write(c.config)), c.error);
    });
  }
});
