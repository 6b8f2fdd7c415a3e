/**
 * The user of a client certificate, as kube's x509 authenticator makes it: common name, organizations as
 * groups (plus system:authenticated, as kube's group adder), the certificate's SHA-256 as credential id; no
 * certificate is no opinion, a certificate without a common name is no user, one that does not verify is 401.
 */
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { clientCertificate, credentialId, testCa, type TestCa } from '../../test/support/certificates.js';
import { ApiError } from '../api/index.js';
import type { AuthenticationRequest } from './authenticator.js';
import { CertificatePool } from './certificate-pool.js';
import { certificateUser, CREDENTIAL_ID, X509Authenticator } from './x509.js';

const request = (chain?: X509Certificate[]): AuthenticationRequest => ({
  headers: {},
  rawHeaders: [],
  peerCertificates: () => chain,
});

describe('client certificate users', () => {
  let ca: TestCa;
  let authenticator: X509Authenticator;
  before(async () => {
    ca = await testCa('client-ca');
    authenticator = new X509Authenticator(new CertificatePool(ca.cert, 'test'));
  });

  it('CN is the name, each O a group in order, then system:authenticated; the credential id is the SHA-256', async () => {
    const { cert } = await clientCertificate(ca, { cn: 'alice', groups: ['dev', 'qa'] });
    const user = await authenticator.authenticate(request([new X509Certificate(cert)]));
    assert.deepEqual(user, {
      name: 'alice',
      uid: '',
      groups: ['dev', 'qa', 'system:authenticated'],
      extra: { [CREDENTIAL_ID]: [credentialId(cert)] },
    });
  });

  it('a certificate in system:unauthenticated or system:authenticated gets no second group', async () => {
    for (const group of ['system:unauthenticated', 'system:authenticated']) {
      const { cert } = await clientCertificate(ca, { cn: 'carol', groups: [group] });
      assert.deepEqual(certificateUser(new X509Certificate(cert))?.groups, [group]);
    }
  });

  it('a certificate without a common name names no user', async () => {
    const { cert } = await clientCertificate(ca, { cn: '' });
    assert.equal(await authenticator.authenticate(request([new X509Certificate(cert)])), undefined);
  });

  it('no certificate: no opinion', async () => {
    assert.equal(await authenticator.authenticate(request()), undefined);
  });

  it('a certificate the CA did not sign is 401', async () => {
    const stranger = await testCa('stranger');
    const { cert } = await clientCertificate(stranger, { cn: 'mallory' });
    const e = await authenticator.authenticate(request([new X509Certificate(cert)])).catch((err) => err);
    assert.ok(e instanceof ApiError && e.code === 401, String(e));
  });
});
