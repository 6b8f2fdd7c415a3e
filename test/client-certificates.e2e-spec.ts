/**
 * Client certificates against the real server (the data dir's CA is the client CA when --client-ca-file is
 * not given), over HTTP/1.1 and h2: the common name is the user and each organization a group; a
 * certificate of another CA, expired, not yet valid or not for client auth is a 401; kube's order with a
 * bearer token (the certificate first, the token only when the certificate names no user); a certificate
 * that expires during an h2 connection stops working on it; TLS below 1.2 is refused.
 *
 * Who the server takes a request for shows in a Forbidden: a certificate in the group
 * `system:unauthenticated` does not get `system:authenticated`, so reading configmaps is forbidden to it by
 * name. Once the server serves SelfSubjectReview, its whole identity is compared too.
 */
import assert from 'node:assert/strict';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { connect as tlsConnect } from 'node:tls';
import { before, describe, it } from 'node:test';
import {
  clientCertificate,
  credentialId,
  dataDirCa,
  intermediateCa,
  testCa,
  type TestCa,
} from './support/certificates.js';
import { serverExit } from './support/server.js';
import {
  h1Request,
  h2Once,
  h2Request,
  h2Session,
  selfSubjectReview,
  type Credentials,
  type TlsRequest,
  type TlsResponse,
} from './support/tls-client.js';
import { everything, grant, group } from './support/rbac.js';
import { useServer } from './support/use-server.js';

const LIST = { path: '/api/v1/namespaces/default/configmaps' };
const forbiddenTo = (user: string) =>
  new RegExp(`configmaps is forbidden: User "${user}" cannot list resource "configmaps"`);

type Send = (c: Credentials, r: TlsRequest) => Promise<TlsResponse>;

describe('client certificates', () => {
  const s = useServer();
  let ca: TestCa;
  const protocols: [string, Send][] = [
    ['HTTP/1.1', (c, r) => h1Request(s, c, r)],
    ['h2', (c, r) => h2Once(s, c, r)],
  ];

  before(async () => {
    ca = await dataDirCa(s.dataDir);
    // what this file proves is who a certificate is; every authenticated user may do everything here
    await grant(s, 'authenticated-all', [group('system:authenticated')], everything);
  });

  for (const [protocol, send] of protocols) {
    it(`${protocol}: the common name is the user, each organization a group`, async () => {
      const alice = await clientCertificate(ca, { cn: 'alice', groups: ['dev', 'qa'] });
      const ok = await send(alice, LIST);
      assert.equal(ok.status, 200, ok.text);
      const carol = await clientCertificate(ca, { cn: 'carol', groups: ['system:unauthenticated'] });
      const denied = await send(carol, LIST);
      assert.equal(denied.status, 403, denied.text);
      assert.match(denied.json.message, forbiddenTo('carol'));

      const who = await selfSubjectReview((r) => send(alice, r));
      if (who) {
        assert.deepEqual(who, {
          username: 'alice',
          groups: ['dev', 'qa', 'system:authenticated'],
          extra: { 'authentication.kubernetes.io/credential-id': [credentialId(alice.cert)] },
        });
      }
    });

    it(`${protocol}: a certificate of another CA, expired, not yet valid or for servers only is 401`, async () => {
      const now = Date.now();
      const stranger = await testCa('stranger');
      const cases = {
        foreign: await clientCertificate(stranger, { cn: 'mallory' }),
        expired: await clientCertificate(ca, {
          cn: 'old',
          notBefore: new Date(now - 7200_000),
          notAfter: new Date(now - 3600_000),
        }),
        'not yet valid': await clientCertificate(ca, { cn: 'early', notBefore: new Date(now + 3600_000) }),
        'server only': await clientCertificate(ca, { cn: 'web', usage: 'server' }),
      };
      for (const [name, cert] of Object.entries(cases)) {
        const r = await send(cert, LIST);
        assert.equal(r.status, 401, `${name}: ${r.text}`);
        assert.equal(r.json.reason, 'Unauthorized', name);
      }
    });
  }

  it('a certificate through an intermediate CA the client sends is a user', async () => {
    const team = await intermediateCa(ca, 'team-ca');
    const bob = await clientCertificate(team, { cn: 'bob', groups: ['system:unauthenticated'] });
    const r = await h1Request(s, { cert: bob.cert + team.cert, key: bob.key }, LIST);
    assert.equal(r.status, 403, r.text);
    assert.match(r.json.message, forbiddenTo('bob'));
    // without the intermediate the server cannot reach its CA
    assert.equal((await h1Request(s, bob, LIST)).status, 401);
  });

  it('a certificate without a common name is no user; the front-proxy authenticator refuses it: 401', async () => {
    // x509 finds no user in it; the authenticating proxy (the generated front-proxy CA, as kubeadm's) cannot
    // verify it, and kube fails such a request rather than making it anonymous
    const nameless = await clientCertificate(ca, { cn: '', groups: ['dev'] });
    const r = await h1Request(s, nameless, LIST);
    assert.equal(r.status, 401, r.text);
    assert.equal(r.json.reason, 'Unauthorized');
  });

  it('with a bearer token too, the certificate decides; the token only when the certificate does not', async () => {
    const carol = await clientCertificate(ca, { cn: 'carol', groups: ['system:unauthenticated'] });
    const stranger = await clientCertificate(await testCa('stranger'), { cn: 'mallory' });
    // a valid certificate: the token is not even looked at, good or bad
    for (const token of [s.token, 'no-such-token']) {
      const r = await h1Request(s, { ...carol, token }, LIST);
      assert.equal(r.status, 403, r.text);
      assert.match(r.json.message, forbiddenTo('carol'));
    }
    // a certificate that does not verify: the token decides
    assert.equal((await h1Request(s, { ...stranger, token: s.token }, LIST)).status, 200);
    assert.equal((await h1Request(s, { ...stranger, token: 'no-such-token' }, LIST)).status, 401);
  });

  it('a certificate that expires during an h2 connection stops authenticating on that connection', async () => {
    const notAfter = new Date(Date.now() + 3000);
    const brief = await clientCertificate(ca, { cn: 'brief', notAfter });
    const session = await h2Session(s, brief);
    try {
      assert.equal((await h2Request(session, brief, LIST)).status, 200);
      await new Promise((r) => setTimeout(r, notAfter.getTime() + 1500 - Date.now()));
      const late = await h2Request(session, brief, LIST);
      assert.equal(late.status, 401, late.text);
      assert.equal(session.closed, false);
    } finally {
      session.close();
    }
  });

  it('refuses TLS below 1.2, and speaks 1.2', async () => {
    const handshake = (version: 'TLSv1.1' | 'TLSv1.2') =>
      new Promise<string>((resolve) => {
        const url = new URL(s.url);
        const socket = tlsConnect({
          host: url.hostname,
          port: Number(url.port),
          ca: s.ca,
          minVersion: 'TLSv1',
          maxVersion: version,
          // OpenSSL 3 offers TLS 1.0 and 1.1 only at security level 0: the refusal must be the server's
          ciphers: 'DEFAULT@SECLEVEL=0',
        });
        socket.once('secureConnect', () => {
          resolve(String(socket.getProtocol()));
          socket.destroy();
        });
        socket.once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
      });
    assert.equal(await handshake('TLSv1.2'), 'TLSv1.2');
    assert.match(await handshake('TLSv1.1'), /PROTOCOL_VERSION/);
  });

  it('publishes the client CA and its generated front-proxy CA in kube-system/extension-apiserver-authentication', async () => {
    const r = await s.request(
      'GET',
      '/api/v1/namespaces/kube-system/configmaps/extension-apiserver-authentication',
    );
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json.data, {
      'client-ca-file': ca.cert,
      // kubeadm's layout: aggregated servers trust identity headers under the front-proxy CA only
      'requestheader-client-ca-file': await readFile(
        path.join(s.dataDir, 'pki', 'front-proxy-ca.crt'),
        'utf8',
      ),
      'requestheader-allowed-names': '["front-proxy-client"]',
      'requestheader-username-headers': '["X-Remote-User"]',
      'requestheader-group-headers': '["X-Remote-Group"]',
      'requestheader-extra-headers-prefix': '["X-Remote-Extra-"]',
      'requestheader-uid-headers': '[]',
    });
    assert.equal((await stat(path.join(s.dataDir, 'pki', 'front-proxy-ca.key'))).mode & 0o777, 0o600);
    assert.equal((await stat(path.join(s.dataDir, 'pki', 'front-proxy-client.key'))).mode & 0o777, 0o600);
  });
});

describe('client CA flags at start', () => {
  it('an unreadable --client-ca-file or --requestheader-client-ca-file stops the server, naming the flag', async () => {
    for (const flag of ['--client-ca-file', '--requestheader-client-ca-file']) {
      const r = await serverExit([`${flag}=/nonexistent/ca.crt`]);
      assert.equal(r.code, 1, r.output);
      assert.match(r.output, new RegExp(`${flag}: cannot read /nonexistent/ca.crt: ENOENT`));
    }
  });

  it('a --client-ca-file without a certificate stops the server, naming the flag', async () => {
    const r = await serverExit(['--client-ca-file=/etc/hostname']);
    assert.equal(r.code, 1, r.output);
    assert.match(r.output, /--client-ca-file \/etc\/hostname: no PEM certificate in it/);
  });

  it('--requestheader-* flags without --requestheader-client-ca-file stop the server, naming them', async () => {
    const r = await serverExit(['--requestheader-allowed-names=front-proxy']);
    assert.equal(r.code, 2, r.output);
    assert.match(r.output, /--requestheader-allowed-names need --requestheader-client-ca-file/);
  });
});
