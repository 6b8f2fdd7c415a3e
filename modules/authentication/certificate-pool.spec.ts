/**
 * Client certificate chains against a CA bundle, as Go's x509 Verify judges them for kube: signed by the
 * bundle directly or through intermediates the client sent (each one a CA), client auth allowed by every
 * extended key usage, every certificate valid at the time of the request. The path is built once per chain
 * array (one connection); each call only compares the clock with its validity.
 */
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { createPrivateKey, webcrypto, X509Certificate } from 'node:crypto';
import * as peculiar from '@peculiar/x509';
import { before, describe, it } from 'node:test';
import { clientCertificate, intermediateCa, testCa, type TestCa } from '../../test/support/certificates.js';
import { CertificateError, CertificatePool } from './certificate-pool.js';

const x509 = (pem: string) => new X509Certificate(pem);
const HOUR = 3600_000;

describe('CertificatePool', () => {
  let ca: TestCa;
  let other: TestCa;
  let pool: CertificatePool;

  before(async () => {
    [ca, other] = await Promise.all([testCa('client-ca'), testCa('other-ca')]);
    // a bundle of two CAs: either verifies
    pool = new CertificatePool(other.cert + ca.cert, 'test bundle');
  });

  const refused = (chain: X509Certificate[], pattern: RegExp, now?: number) =>
    assert.throws(
      () => pool.verify(chain, now),
      (e: unknown) => e instanceof CertificateError && pattern.test(e.message),
    );

  it('verifies a certificate the bundle signed, and gives the path to its CA', async () => {
    const leaf = x509((await clientCertificate(ca, { cn: 'alice' })).cert);
    const path = pool.verify([leaf]);
    assert.equal(path.length, 2);
    assert.ok(path[1].raw.equals(x509(ca.cert).raw));
  });

  it('verifies through an intermediate CA the client sends, not without it', async () => {
    const mid = await intermediateCa(ca, 'team-ca');
    const leaf = x509((await clientCertificate(mid, { cn: 'bob' })).cert);
    assert.equal(pool.verify([leaf, x509(mid.cert)]).length, 3);
    refused([leaf], /unknown authority/);
  });

  it('refuses a path through an intermediate that is not a CA', async () => {
    const notCa = await clientCertificate(ca, { cn: 'not-a-ca' });
    // loadSigner refuses to sign with a certificate that is no CA: build the signer by hand
    const der = createPrivateKey(notCa.key).export({ format: 'der', type: 'pkcs8' });
    const signer: TestCa = {
      ...notCa,
      signer: {
        cert: new peculiar.X509Certificate(notCa.cert),
        key: await webcrypto.subtle.importKey('pkcs8', der, { name: 'ECDSA', namedCurve: 'P-256' }, false, [
          'sign',
        ]),
        algorithm: { name: 'ECDSA', hash: 'SHA-256' },
      },
    };
    const leaf = x509((await clientCertificate(signer, { cn: 'eve' })).cert);
    refused([leaf, x509(notCa.cert)], /unknown authority/);
  });

  it('refuses a certificate of another CA', async () => {
    const stranger = await testCa('stranger-ca');
    const leaf = x509((await clientCertificate(stranger, { cn: 'mallory' })).cert);
    refused([leaf], /unknown authority/);
    // sending the stranger's CA along makes it an intermediate, not a root
    refused([leaf, x509(stranger.cert)], /unknown authority/);
  });

  it('refuses a certificate whose extended key usage does not allow client auth', async () => {
    const server = x509((await clientCertificate(ca, { cn: 'web', usage: 'server' })).cert);
    refused([server], /incompatible key usage/);
  });

  it('compares the validity with the clock on every call: not yet valid, valid, expired', async () => {
    const now = Date.now();
    const leaf = x509(
      (
        await clientCertificate(ca, {
          cn: 'soon',
          notBefore: new Date(now + HOUR),
          notAfter: new Date(now + 2 * HOUR),
        })
      ).cert,
    );
    const chain = [leaf];
    refused(chain, /expired or is not yet valid/, now);
    assert.equal(pool.verify(chain, now + 1.5 * HOUR).length, 2);
    refused(chain, /expired or is not yet valid/, now + 3 * HOUR);
  });

  it('checks the signatures of one chain array once, however often it is verified', async () => {
    const leaf = x509((await clientCertificate(ca, { cn: 'carol' })).cert);
    const chain = [leaf];
    const original = X509Certificate.prototype.verify;
    let checks = 0;
    X509Certificate.prototype.verify = function (this: X509Certificate, key) {
      checks++;
      return original.call(this, key);
    };
    try {
      for (let i = 0; i < 5; i++) pool.verify(chain);
      const once = checks;
      assert.ok(once >= 1);
      // another connection (another array) with the same certificate is verified on its own
      pool.verify([leaf]);
      assert.ok(checks > once);
      assert.equal(checks, 2 * once);
    } finally {
      X509Certificate.prototype.verify = original;
    }
  });

  it('refuses a bundle without certificates, naming where it came from', () => {
    assert.throws(
      () => new CertificatePool('not a certificate', '--client-ca-file /x'),
      /--client-ca-file \/x: no PEM certificate/,
    );
    assert.throws(
      () =>
        new CertificatePool(
          '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n',
          '--client-ca-file /y',
        ),
      /--client-ca-file \/y: not a PEM certificate bundle/,
    );
  });

  it('publishes its certificates as PEM, one after the other', () => {
    assert.equal(pool.pem, x509(other.cert).toString() + x509(ca.cert).toString());
  });
});
