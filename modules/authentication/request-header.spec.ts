/**
 * The authenticating proxy: headers name the user only on a connection whose certificate the proxy CA signed
 * (with an allowed common name, when names are given); how kube reads the headers.
 */
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { clientCertificate, testCa, type TestCa } from '../../test/support/certificates.js';
import { ApiError } from '../api/index.js';
import type { AuthenticationRequest } from './authenticator.js';
import { CertificatePool } from './certificate-pool.js';
import { headerUser, RequestHeaderAuthenticator, type RequestHeaderNames } from './request-header.js';

const names: RequestHeaderNames = {
  usernameHeaders: ['X-Remote-User', 'X-Other-User'],
  uidHeaders: ['X-Remote-Uid'],
  groupHeaders: ['X-Remote-Group'],
  extraHeaderPrefixes: ['X-Remote-Extra-'],
};

describe('headerUser', () => {
  it('reads name, uid, groups and extra as kube does', () => {
    const user = headerUser(
      [
        'x-remote-user',
        'bob',
        'X-Remote-User',
        'ignored: only the first value counts',
        'X-Remote-Uid',
        'u-1',
        'X-Remote-Group',
        'g1',
        'x-remote-group',
        '',
        'X-REMOTE-GROUP',
        'a,b',
        'X-Remote-Extra-Scopes',
        'read',
        'x-remote-extra-scopes',
        'write',
        'X-Remote-Extra-Acme.com%2FTeam',
        'x',
        'X-Remote-Extra-Bad%zz',
        'y',
        'X-Remote-Extra-%41',
        '',
      ],
      names,
    );
    assert.deepEqual(user, {
      name: 'bob',
      uid: 'u-1',
      // empty values are dropped, a comma stays inside its value
      groups: ['g1', 'a,b', 'system:authenticated'],
      // keys: lower-cased, then percent-decoded (an escaped capital stays), a malformed escape kept as sent
      extra: { scopes: ['read', 'write'], 'acme.com/team': ['x'], 'bad%zz': ['y'], A: [''] },
    });
  });

  it('takes the first username header with a value; none: no user', () => {
    assert.equal(headerUser(['X-Remote-User', '', 'X-Other-User', 'eve'], names)?.name, 'eve');
    assert.equal(headerUser(['X-Remote-Group', 'g'], names), undefined);
  });

  it('a user in system:unauthenticated, or system:anonymous, gets no system:authenticated', () => {
    assert.deepEqual(
      headerUser(['X-Remote-User', 'bob', 'X-Remote-Group', 'system:unauthenticated'], names)?.groups,
      ['system:unauthenticated'],
    );
    assert.deepEqual(headerUser(['X-Remote-User', 'system:anonymous'], names)?.groups, []);
  });
});

describe('RequestHeaderAuthenticator', () => {
  let proxyCa: TestCa;
  let proxy: X509Certificate;
  let intruder: X509Certificate;
  let client: X509Certificate;
  const headers = ['X-Remote-User', 'bob'];
  const request = (chain?: X509Certificate[]): AuthenticationRequest => ({
    headers: {},
    rawHeaders: headers,
    peerCertificates: () => chain,
  });
  const authenticator = (allowedNames: string[]) =>
    new RequestHeaderAuthenticator({
      ...names,
      ca: new CertificatePool(proxyCa.cert, 'proxy ca'),
      allowedNames,
    });
  const status = (p: Promise<unknown>) =>
    p.then(
      () => 200,
      (e) => (e instanceof ApiError ? e.code : 500),
    );

  before(async () => {
    proxyCa = await testCa('proxy-ca');
    const clientCa = await testCa('client-ca');
    proxy = new X509Certificate((await clientCertificate(proxyCa, { cn: 'front-proxy' })).cert);
    intruder = new X509Certificate((await clientCertificate(proxyCa, { cn: 'intruder' })).cert);
    client = new X509Certificate((await clientCertificate(clientCa, { cn: 'alice' })).cert);
  });

  it('a proxy certificate with an allowed name: the headers are the user', async () => {
    assert.equal((await authenticator(['front-proxy']).authenticate(request([proxy])))?.name, 'bob');
    // no allowed names: any certificate of the proxy CA
    assert.equal((await authenticator([]).authenticate(request([intruder])))?.name, 'bob');
  });

  it('no certificate: no opinion, whatever the headers say', async () => {
    assert.equal(await authenticator(['front-proxy']).authenticate(request()), undefined);
  });

  it('a common name not allowed, or a certificate of another CA, is 401', async () => {
    assert.equal(await status(authenticator(['front-proxy']).authenticate(request([intruder]))), 401);
    assert.equal(await status(authenticator([]).authenticate(request([client]))), 401);
  });
});
