/**
 * extension-apiserver-authentication's data, as kube's cluster-authentication-trust controller writes it:
 * this server's CAs and proxy headers combined with what is stored (unions, each once, expired CAs dropped).
 */
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { testCa } from '../../test/support/certificates.js';
import { CertificatePool } from './certificate-pool.js';
import { trustData, type AuthenticationTrust } from './authentication-trust.js';

const pem = (cert: string) => new X509Certificate(cert).toString();

describe('trustData', () => {
  let clientCa: string;
  let proxyCa: string;
  let otherCa: string;
  let trust: AuthenticationTrust;

  before(async () => {
    [clientCa, proxyCa, otherCa] = (await Promise.all(['client', 'proxy', 'other'].map(testCa))).map(
      (c) => c.cert,
    );
    trust = {
      clientCa: new CertificatePool(clientCa, 'client'),
      requestHeader: {
        ca: new CertificatePool(proxyCa, 'proxy'),
        allowedNames: ['front-proxy'],
        usernameHeaders: ['X-Remote-User'],
        uidHeaders: [],
        groupHeaders: ['X-Remote-Group'],
        extraHeaderPrefixes: ['X-Remote-Extra-'],
      },
    };
  });

  it('writes the CAs as PEM and the proxy lists as JSON arrays', () => {
    assert.deepEqual(trustData({}, trust), {
      'client-ca-file': pem(clientCa),
      'requestheader-client-ca-file': pem(proxyCa),
      'requestheader-allowed-names': '["front-proxy"]',
      'requestheader-username-headers': '["X-Remote-User"]',
      'requestheader-uid-headers': '[]',
      'requestheader-group-headers': '["X-Remote-Group"]',
      'requestheader-extra-headers-prefix': '["X-Remote-Extra-"]',
    });
  });

  it('without a proxy, only the client CA', () => {
    assert.deepEqual(trustData({}, { clientCa: trust.clientCa }), { 'client-ca-file': pem(clientCa) });
  });

  it('keeps what others stored: CAs and list entries joined, each once; unknown keys dropped', () => {
    const stored = {
      'client-ca-file': pem(otherCa) + pem(clientCa),
      'requestheader-client-ca-file': pem(otherCa),
      'requestheader-allowed-names': '["aggregator","front-proxy"]',
      'requestheader-username-headers': '["X-Remote-User"]',
      'requestheader-group-headers': 'not json',
      foo: 'bar',
    };
    const data = trustData(stored, trust);
    assert.equal(data['client-ca-file'], pem(otherCa) + pem(clientCa));
    assert.equal(data['requestheader-client-ca-file'], pem(otherCa) + pem(proxyCa));
    assert.equal(data['requestheader-allowed-names'], '["aggregator","front-proxy"]');
    assert.equal(data['requestheader-username-headers'], '["X-Remote-User"]');
    // a value no one can read is replaced by this server's
    assert.equal(data['requestheader-group-headers'], '["X-Remote-Group"]');
    assert.equal(data.foo, undefined);
    // stored proxy data stays even when this server has no proxy
    assert.equal(
      trustData(stored, { clientCa: trust.clientCa })['requestheader-client-ca-file'],
      pem(otherCa),
    );
  });

  it('drops CAs expired more than 5 minutes ago', () => {
    const notAfter = Date.parse(new X509Certificate(otherCa).validTo);
    const stored = { 'client-ca-file': pem(otherCa) };
    assert.equal(trustData(stored, {}, notAfter + 4 * 60_000)['client-ca-file'], pem(otherCa));
    assert.equal(trustData(stored, {}, notAfter + 6 * 60_000)['client-ca-file'], undefined);
  });
});
