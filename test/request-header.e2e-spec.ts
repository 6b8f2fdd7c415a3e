/**
 * The authenticating proxy against the real server: a front proxy with a certificate of the
 * --requestheader-client-ca-file CA and an allowed common name names the user, UID, groups and extra in
 * headers (HTTP/1.1 and h2); the same headers from a connection without such a certificate mean nothing;
 * a proxy certificate with a common name not allowed is refused. The server publishes whom it trusts in
 * kube-system/extension-apiserver-authentication, and puts it back when it is changed or deleted.
 */
import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { before, describe, it } from 'node:test';
import { clientCertificate, dataDirCa, testCa, type TestCa } from './support/certificates.js';
import type { KeyPair } from '../src/pki/certificates.js';
import {
  h1Request,
  h2Once,
  selfSubjectReview,
  type Credentials,
  type TlsRequest,
  type TlsResponse,
} from './support/tls-client.js';
import { everything, grant, group } from './support/rbac.js';
import { useServer } from './support/use-server.js';

const LIST = '/api/v1/namespaces/default/configmaps';
const TRUST = '/api/v1/namespaces/kube-system/configmaps/extension-apiserver-authentication';
const forbiddenTo = (user: string) =>
  new RegExp(`configmaps is forbidden: User "${user}" cannot list resource "configmaps"`);

type Send = (c: Credentials, r: TlsRequest) => Promise<TlsResponse>;

describe('authenticating proxy', () => {
  let proxyCa: TestCa;
  let proxy: KeyPair;
  let intruder: KeyPair;
  const s = useServer(async () => {
    proxyCa = await testCa('front-proxy-ca');
    const dir = await mkdtemp(path.join(tmpdir(), 'pgkube-proxy-ca-'));
    const file = path.join(dir, 'front-proxy-ca.crt');
    await writeFile(file, proxyCa.cert);
    return {
      args: [
        `--requestheader-client-ca-file=${file}`,
        '--requestheader-allowed-names=front-proxy,aggregator',
        '--feature-gates=RemoteRequestHeaderUID=true',
        '--requestheader-uid-headers=X-Remote-Uid',
      ],
    };
  });
  const protocols: [string, Send][] = [
    ['HTTP/1.1', (c, r) => h1Request(s, c, r)],
    ['h2', (c, r) => h2Once(s, c, r)],
  ];

  before(async () => {
    proxy = await clientCertificate(proxyCa, { cn: 'front-proxy' });
    intruder = await clientCertificate(proxyCa, { cn: 'intruder' });
  });

  for (const [protocol, send] of protocols) {
    it(`${protocol}: a proxy certificate with an allowed name: the headers are the user`, async () => {
      const denied = await send(proxy, {
        path: LIST,
        headers: { 'X-Remote-User': 'bob', 'X-Remote-Group': 'system:unauthenticated' },
      });
      assert.equal(denied.status, 403, denied.text);
      assert.match(denied.json.message, forbiddenTo('bob'));

      const headers = {
        'X-Remote-User': 'bob',
        'X-Remote-Uid': 'uid-bob',
        'X-Remote-Group': ['g1', 'g2'],
        'X-Remote-Extra-Scopes': ['read', 'write'],
        'X-Remote-Extra-Acme.com%2FTeam': 'blue',
      };
      assert.equal((await send(proxy, { path: LIST, headers })).status, 200);
      const who = await selfSubjectReview((r) => send(proxy, { ...r, headers }));
      if (who) {
        assert.deepEqual(who, {
          username: 'bob',
          uid: 'uid-bob',
          groups: ['g1', 'g2', 'system:authenticated'],
          extra: { scopes: ['read', 'write'], 'acme.com/team': ['blue'] },
        });
      }
    });

    it(`${protocol}: a proxy certificate whose common name is not allowed is refused`, async () => {
      const r = await send(intruder, { path: LIST, headers: { 'X-Remote-User': 'bob' } });
      assert.equal(r.status, 401, r.text);
      // a bearer token that is good still decides
      const token = await send(
        { ...intruder, token: s.token },
        { path: LIST, headers: { 'X-Remote-User': 'bob' } },
      );
      assert.equal(token.status, 200, token.text);
    });
  }

  // this file proves who a credential makes the caller; what that caller may do is not its subject
  before(() => grant(s, 'authenticated-all', [group('system:authenticated')], everything));

  it('headers without a proxy certificate are ignored', async () => {
    const headers = { 'X-Remote-User': 'bob', 'X-Remote-Group': 'system:masters' };
    // nothing else: anonymous
    const anonymous = await h1Request(s, {}, { path: LIST, headers });
    assert.equal(anonymous.status, 403, anonymous.text);
    assert.match(anonymous.json.message, forbiddenTo('system:anonymous'));
    // a client certificate (the client CA, not the proxy CA): the certificate's own user
    const carol = await clientCertificate(await dataDirCa(s.dataDir), {
      cn: 'carol',
      groups: ['system:unauthenticated'],
    });
    const asCarol = await h1Request(s, carol, { path: LIST, headers });
    assert.equal(asCarol.status, 403, asCarol.text);
    assert.match(asCarol.json.message, forbiddenTo('carol'));
    // a certificate of no CA the server knows: 401, the headers change nothing
    const stranger = await clientCertificate(await testCa('stranger'), { cn: 'front-proxy' });
    assert.equal((await h1Request(s, stranger, { path: LIST, headers })).status, 401);
  });

  it('a proxy certificate without a user header is no user (nor the proxy itself): 401', async () => {
    const r = await h1Request(s, proxy, { path: LIST });
    assert.equal(r.status, 401, r.text);
  });

  const expectedTrust = async () => ({
    'client-ca-file': (await dataDirCa(s.dataDir)).cert,
    'requestheader-client-ca-file': proxyCa.cert,
    'requestheader-allowed-names': '["front-proxy","aggregator"]',
    'requestheader-username-headers': '["X-Remote-User"]',
    'requestheader-uid-headers': '["X-Remote-Uid"]',
    'requestheader-group-headers': '["X-Remote-Group"]',
    'requestheader-extra-headers-prefix': '["X-Remote-Extra-"]',
  });

  async function trustBecomes(expected: Record<string, string>): Promise<void> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const r = await s.request('GET', TRUST);
      if (r.status === 200 && isDeepStrictEqual(r.json.data, expected)) return;
      if (Date.now() > deadline) assert.deepEqual(r.json?.data, expected, r.text);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it('publishes extension-apiserver-authentication as kube writes it', async () => {
    const r = await s.request('GET', TRUST);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json.data, await expectedTrust());
  });

  it('puts extension-apiserver-authentication back when it is changed or deleted', async () => {
    const expected = await expectedTrust();
    const changed = await s.request('PATCH', TRUST, {
      raw: JSON.stringify({ data: { 'requestheader-allowed-names': '[]', 'client-ca-file': '' } }),
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    assert.equal(changed.status, 200, changed.text);
    await trustBecomes(expected);
    assert.equal((await s.request('DELETE', TRUST)).status, 200);
    await trustBecomes(expected);
  });
});
