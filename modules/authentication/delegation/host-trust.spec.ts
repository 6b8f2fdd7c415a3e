/**
 * The host's trust (kube's delegating authentication): the client CA and the authenticating proxy read from
 * the host's extension-apiserver-authentication, used by the x509 and request-header authenticators on the
 * next request after the ConfigMap changed (no restart), and how a missing, forbidden or malformed ConfigMap
 * is taken. The host is a real HTTP server on 127.0.0.1 (test/support/host-api.ts).
 */
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { after, before, beforeEach, describe, it } from 'node:test';
import { clientCertificate, testCa, type TestCa } from '../../../test/support/certificates.js';
import { hostApi, type HostApi } from '../../../test/support/host-api.js';
import { eventually } from '../../../test/support/eventually.js';
import { ApiError } from '../../api/index.js';
import { WebhookTransport } from '../../webhook/index.js';
import type { AuthenticationRequest } from '../authenticator.js';
import { CertificatePool } from '../certificate-pool.js';
import { RequestHeaderAuthenticator } from '../request-header.js';
import { X509Authenticator } from '../x509.js';
import { HOST_TRUST_PATH, HostTrust, hostTrustFrom } from './host-trust.js';
import { loadDelegatedAuthentication, TOKEN_REVIEW_PATH } from './load.js';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

const ROUTE = `GET ${HOST_TRUST_PATH}`;

function configMap(data: Record<string, string>) {
  return {
    body: {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'extension-apiserver-authentication', namespace: 'kube-system' },
      data,
    },
  };
}

function proxyData(caPem: string, allowedNames: string[] = ['front-proxy']): Record<string, string> {
  return {
    'requestheader-client-ca-file': caPem,
    'requestheader-allowed-names': JSON.stringify(allowedNames),
    'requestheader-username-headers': '["X-Remote-User"]',
    'requestheader-group-headers': '["X-Remote-Group"]',
    'requestheader-extra-headers-prefix': '["X-Remote-Extra-"]',
  };
}

const request = (chain?: X509Certificate[]): AuthenticationRequest => ({
  headers: {},
  rawHeaders: ['X-Remote-User', 'bob', 'X-Remote-Group', 'devs'],
  peerCertificates: () => chain,
});

const status = (p: Promise<unknown>) =>
  p.then(
    (u) => (u ? 200 : 'no opinion'),
    (e) => (e instanceof ApiError ? e.code : 500),
  );

describe('host trust', () => {
  let host: HostApi;
  let clientCa1: TestCa;
  let clientCa2: TestCa;
  let proxyCa1: TestCa;
  let proxyCa2: TestCa;
  let ownCa: TestCa;
  let alice1: X509Certificate;
  let alice2: X509Certificate;
  let own: X509Certificate;
  let proxy1: X509Certificate;
  let proxy2: X509Certificate;
  let intruder2: X509Certificate;
  const cert = async (ca: TestCa, cn: string) =>
    new X509Certificate((await clientCertificate(ca, { cn })).cert);
  const trust = (o: { clientCa?: boolean; requestHeader?: boolean; pollMs?: number } = {}, log?: string[]) =>
    new HostTrust({
      transport: new WebhookTransport(host.connection, 2000),
      clientCa: o.clientCa ?? true,
      requestHeader: o.requestHeader ?? true,
      ownClientCa: new CertificatePool(ownCa.cert, 'own'),
      pollMs: o.pollMs,
      log: (m) => log?.push(m),
    });

  before(async () => {
    host = await hostApi();
    [clientCa1, clientCa2, proxyCa1, proxyCa2, ownCa] = await Promise.all(
      ['client-1', 'client-2', 'proxy-1', 'proxy-2', 'own'].map((n) => testCa(n)),
    );
    alice1 = await cert(clientCa1, 'alice');
    alice2 = await cert(clientCa2, 'alice');
    own = await cert(ownCa, 'own-user');
    proxy1 = await cert(proxyCa1, 'front-proxy');
    proxy2 = await cert(proxyCa2, 'front-proxy');
    intruder2 = await cert(proxyCa2, 'intruder');
  });
  after(() => host.close());
  beforeEach(() => {
    host.routes.clear();
    host.calls.length = 0;
  });

  it('reads the CAs and the JSON lists; the own client CA is trusted beside the host’s', () => {
    const state = hostTrustFrom(
      { 'client-ca-file': clientCa1.cert, ...proxyData(proxyCa1.cert, ['a', 'b']) },
      { clientCa: true, requestHeader: true, ownClientCa: new CertificatePool(ownCa.cert, 'own') },
    );
    assert.equal(state.clientCa?.certificates.length, 2);
    assert.equal(state.requestHeader?.ca.certificates.length, 1);
    assert.deepEqual(state.requestHeader?.allowedNames, ['a', 'b']);
    assert.deepEqual(state.requestHeader?.usernameHeaders, ['X-Remote-User']);
    assert.deepEqual(state.requestHeader?.uidHeaders, []);
    // what a flag gave is not taken from the host
    const flags = hostTrustFrom(
      { 'client-ca-file': clientCa1.cert, ...proxyData(proxyCa1.cert) },
      {
        clientCa: false,
        requestHeader: false,
      },
    );
    assert.deepEqual(flags, {});
    // no proxy CA: no proxy
    assert.equal(
      hostTrustFrom({ 'client-ca-file': clientCa1.cert }, { clientCa: true, requestHeader: true })
        .requestHeader,
      undefined,
    );
    assert.throws(
      () =>
        hostTrustFrom(
          { ...proxyData(proxyCa1.cert), 'requestheader-allowed-names': 'front-proxy' },
          { clientCa: false, requestHeader: true },
        ),
      /requestheader-allowed-names is not a JSON list/,
    );
  });

  it('a new CA in the ConfigMap judges the next request; the old one no longer does', async () => {
    host.routes.set(ROUTE, configMap({ 'client-ca-file': clientCa1.cert, ...proxyData(proxyCa1.cert) }));
    const t = trust();
    await t.load();
    assert.equal(host.calls[0].authorization, 'Bearer host-token');
    const x509 = new X509Authenticator(t.clientCa);
    const proxy = new RequestHeaderAuthenticator(t.requestHeader);
    assert.equal((await x509.authenticate(request([alice1])))?.name, 'alice');
    assert.equal((await x509.authenticate(request([own])))?.name, 'own-user');
    assert.equal(await status(x509.authenticate(request([alice2]))), 401);
    assert.deepEqual(await proxy.authenticate(request([proxy1])), {
      name: 'bob',
      uid: '',
      groups: ['devs', 'system:authenticated'],
    });
    assert.equal(await status(proxy.authenticate(request([proxy2]))), 401);

    const changes: unknown[] = [];
    t.onChange((s) => changes.push(s));
    host.routes.set(ROUTE, configMap({ 'client-ca-file': clientCa2.cert, ...proxyData(proxyCa2.cert) }));
    await t.load();
    assert.equal(changes.length, 1);
    // the same connections (chains) are judged anew
    assert.equal(await status(x509.authenticate(request([alice1]))), 401);
    assert.equal((await x509.authenticate(request([alice2])))?.name, 'alice');
    assert.equal((await x509.authenticate(request([own])))?.name, 'own-user');
    assert.equal(await status(proxy.authenticate(request([proxy1]))), 401);
    assert.equal((await proxy.authenticate(request([proxy2])))?.name, 'bob');
    assert.equal(await status(proxy.authenticate(request([intruder2]))), 401);
    // the allowed names follow too
    host.routes.set(ROUTE, configMap(proxyData(proxyCa2.cert, ['intruder'])));
    await t.load();
    assert.equal((await proxy.authenticate(request([intruder2])))?.name, 'bob');
    assert.equal(await status(proxy.authenticate(request([proxy2]))), 401);
    // an unchanged ConfigMap changes nothing
    await t.load();
    assert.equal(changes.length, 2);
  });

  it('follow() polls the host: a change is picked up without a call', async () => {
    host.routes.set(ROUTE, configMap(proxyData(proxyCa1.cert)));
    const t = trust({ pollMs: 50 });
    await t.load();
    const proxy = new RequestHeaderAuthenticator(t.requestHeader);
    t.follow();
    try {
      host.routes.set(ROUTE, configMap(proxyData(proxyCa2.cert)));
      await eventually(
        async () => (await proxy.authenticate(request([proxy2])).catch(() => undefined))?.name === 'bob',
        'the new proxy CA',
      );
      assert.equal(await status(proxy.authenticate(request([proxy1]))), 401);
    } finally {
      t.stop();
    }
  });

  it('a ConfigMap that is gone trusts nothing of the host; a failed or malformed read keeps what was trusted', async () => {
    host.routes.set(ROUTE, configMap({ 'client-ca-file': clientCa1.cert, ...proxyData(proxyCa1.cert) }));
    const t = trust();
    await t.load();
    host.routes.set(ROUTE, {
      code: 403,
      body: { kind: 'Status', apiVersion: 'v1', code: 403, message: 'configmaps "x" is forbidden: User "b"' },
    });
    await assert.rejects(t.load(), /^Error: configmaps "x" is forbidden: User "b"$/);
    host.routes.set(ROUTE, configMap({ ...proxyData(proxyCa1.cert), 'requestheader-group-headers': '{' }));
    await assert.rejects(t.load(), /requestheader-group-headers is not a JSON list/);
    const proxy = new RequestHeaderAuthenticator(t.requestHeader);
    assert.equal((await proxy.authenticate(request([proxy1])))?.name, 'bob');
    host.routes.delete(ROUTE);
    await t.load();
    assert.equal(t.requestHeader(), undefined);
    // no proxy at all: the headers mean nothing, with or without a certificate
    assert.equal(await status(proxy.authenticate(request([proxy1]))), 'no opinion');
    // the own CA stays
    assert.equal((await new X509Authenticator(t.clientCa).authenticate(request([own])))?.name, 'own-user');
  });
});

describe('loadDelegatedAuthentication', () => {
  let host: HostApi;
  let dir: string;
  const kubeconfig = async (server: string) => {
    const file = path.join(dir, `host-${Math.random()}.kubeconfig`);
    await writeFile(
      file,
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'host', cluster: { server } }],
        users: [{ name: 'b', user: { token: 'secret-host-token' } }],
        contexts: [{ name: 'b@host', context: { cluster: 'host', user: 'b' } }],
        'current-context': 'b@host',
      }),
    );
    return file;
  };
  const flags = (file: string, o: { tolerate?: boolean; skip?: boolean } = {}) => ({
    kubeconfig: file,
    cacheTtlMs: 10_000,
    skipLookup: o.skip ?? false,
    tolerateLookupFailure: o.tolerate ?? false,
  });
  const choice = { clientCa: true, requestHeader: true };

  before(async () => {
    host = await hostApi();
    dir = await mkdtemp(path.join(tmpdir(), 'pgkube-delegation-'));
  });
  after(() => host.close());

  it('the host reviews tokens (TokenReview v1, cached 10 s) and its trust is read at start', async () => {
    host.routes.set(ROUTE, configMap({ 'requestheader-client-ca-file': (await testCa('p')).cert }));
    const loaded = await loadDelegatedAuthentication(
      flags(await kubeconfig(host.connection.url.href)),
      choice,
      () => {},
    );
    assert.equal(loaded.webhook.connection.url.pathname, TOKEN_REVIEW_PATH);
    assert.equal(loaded.webhook.version, 'v1');
    assert.equal(loaded.webhook.cacheTtlMs, 10_000);
    assert.equal(loaded.webhook.connection.token, 'secret-host-token');
    assert.equal(loaded.webhook.sendAudiences, false, 'kube’s aggregated servers send no audiences');
    assert.ok(loaded.hostTrust?.requestHeader());
    assert.equal(host.calls.at(-1)?.authorization, 'Bearer secret-host-token');
  });

  it('a host that cannot be read stops the start (kube’s words, never the token), unless tolerated', async () => {
    const down = await kubeconfig('http://127.0.0.1:1');
    await assert.rejects(
      loadDelegatedAuthentication(flags(down), choice, () => {}),
      (e: Error) =>
        /^unable to load configmap based request-header-client-ca-file: request failed: connect ECONNREFUSED/.test(
          e.message,
        ) && !e.message.includes('secret-host-token'),
    );
    const log: string[] = [];
    const loaded = await loadDelegatedAuthentication(flags(down, { tolerate: true }), choice, (m) =>
      log.push(m),
    );
    assert.equal(loaded.hostTrust?.requestHeader(), undefined);
    assert.match(log[0], /^Error looking up in-cluster authentication configuration: request failed/);
    assert.equal(
      log[1],
      'Continuing without authentication configuration. This may treat all requests as anonymous.',
    );
    // skipped: not even asked
    const calls = host.calls.length;
    const skipped = await loadDelegatedAuthentication(
      flags(await kubeconfig(host.connection.url.href), { skip: true }),
      choice,
      () => {},
    );
    assert.equal(skipped.hostTrust, undefined);
    assert.equal(host.calls.length, calls);
  });

  it('a kubeconfig that does not read names its flag', async () => {
    await assert.rejects(
      loadDelegatedAuthentication(flags(path.join(dir, 'missing')), choice, () => {}),
      /^Error: --authentication-kubeconfig: ENOENT/,
    );
  });
});
