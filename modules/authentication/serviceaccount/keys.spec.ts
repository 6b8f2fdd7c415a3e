/**
 * Service-account keys from PEM as kube reads them: RSA and ECDSA, private (PKCS#1, SEC1, PKCS#8) or public
 * (PKIX, PKCS#1, a certificate), several per file; the signing key must be private and its public half among
 * the verification keys; errors name the flag and file and never hold key material.
 */
// @peculiar/x509 (certificates below) needs the reflect polyfill, as the server's entry loads it
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { createHash, generateKeyPairSync, webcrypto } from 'node:crypto';
import { describe, it } from 'node:test';
import * as x509 from '@peculiar/x509';
import { keyId, privateKeyFromPem, publicKeysFromPem, serviceAccountKeys } from './keys.js';

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const ec384 = generateKeyPairSync('ec', { namedCurve: 'P-384' });

const pem = {
  rsaPkcs1: rsa.privateKey.export({ type: 'pkcs1', format: 'pem' }) as string,
  rsaPkcs8: rsa.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
  rsaPublicPkix: rsa.publicKey.export({ type: 'spki', format: 'pem' }) as string,
  rsaPublicPkcs1: rsa.publicKey.export({ type: 'pkcs1', format: 'pem' }) as string,
  ecSec1: ec.privateKey.export({ type: 'sec1', format: 'pem' }) as string,
  ecPkcs8: ec.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
  ecPublic: ec.publicKey.export({ type: 'spki', format: 'pem' }) as string,
  ec384: ec384.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
};

/** kube's key id, computed here from its definition: base64url of SHA-256 over the DER SubjectPublicKeyInfo. */
const kid = (k: typeof rsa.publicKey) =>
  createHash('sha256')
    .update(k.export({ type: 'spki', format: 'der' }))
    .digest('base64url');

async function certificatePem(): Promise<{ cert: string; kid: string }> {
  x509.cryptoProvider.set(webcrypto as never);
  const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
  const keys = (await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: 'CN=sa',
    notBefore: new Date(),
    notAfter: new Date(Date.now() + 86_400_000),
    keys,
    signingAlgorithm: alg,
  });
  const spki = Buffer.from(await webcrypto.subtle.exportKey('spki', keys.publicKey));
  return { cert: cert.toString('pem'), kid: createHash('sha256').update(spki).digest('base64url') };
}

const source = (name: string, text: string) => ({ name, pem: text });

describe('publicKeysFromPem', () => {
  it('reads RSA and ECDSA keys in every PEM form kube accepts, private keys as their public half', () => {
    for (const [form, text, expected] of [
      ['RSA PKCS#1 private', pem.rsaPkcs1, kid(rsa.publicKey)],
      ['RSA PKCS#8 private', pem.rsaPkcs8, kid(rsa.publicKey)],
      ['RSA PKIX public', pem.rsaPublicPkix, kid(rsa.publicKey)],
      ['RSA PKCS#1 public', pem.rsaPublicPkcs1, kid(rsa.publicKey)],
      ['EC SEC1 private', pem.ecSec1, kid(ec.publicKey)],
      ['EC PKCS#8 private', pem.ecPkcs8, kid(ec.publicKey)],
      ['EC PKIX public', pem.ecPublic, kid(ec.publicKey)],
    ] as const) {
      const keys = publicKeysFromPem(text);
      assert.equal(keys.length, 1, form);
      assert.equal(keys[0].kid, expected, form);
      assert.equal(keys[0].publicKey.type, 'public', form);
    }
  });

  it("names each key's algorithm by its type and curve", () => {
    assert.equal(publicKeysFromPem(pem.rsaPkcs8)[0].alg, 'RS256');
    assert.equal(publicKeysFromPem(pem.ecPublic)[0].alg, 'ES256');
    assert.equal(publicKeysFromPem(pem.ec384)[0].alg, 'ES384');
  });

  it('reads every key of a file, skipping blocks that hold none (EC PARAMETERS)', () => {
    const params = '-----BEGIN EC PARAMETERS-----\nBggqhkjOPQMBBw==\n-----END EC PARAMETERS-----\n';
    const keys = publicKeysFromPem(params + pem.ecSec1 + pem.rsaPublicPkix);
    assert.deepEqual(
      keys.map((k) => k.kid),
      [kid(ec.publicKey), kid(rsa.publicKey)],
    );
  });

  it("takes a certificate's key", async () => {
    const { cert, kid: expected } = await certificatePem();
    assert.equal(publicKeysFromPem(cert)[0].kid, expected);
  });

  it('refuses a file without an RSA or ECDSA key (kube: no valid public keys)', () => {
    const ed = generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }) as string;
    for (const text of ['', 'not pem', ed]) {
      assert.throws(() => publicKeysFromPem(text), {
        message: 'data does not contain any valid RSA or ECDSA public keys',
      });
    }
  });
});

describe('privateKeyFromPem', () => {
  it('signs with the first RSA or ECDSA private key, under its key id', () => {
    assert.equal(privateKeyFromPem(pem.rsaPkcs1).kid, kid(rsa.publicKey));
    assert.equal(privateKeyFromPem(pem.ecSec1).kid, kid(ec.publicKey));
    assert.equal(privateKeyFromPem(pem.ecPublic + pem.ecPkcs8).privateKey.type, 'private');
  });

  it('refuses public keys only, and RSA keys too small to sign RS256', () => {
    assert.throws(() => privateKeyFromPem(pem.ecPublic + pem.rsaPublicPkix), {
      message: 'data does not contain a valid RSA or ECDSA private key',
    });
    const small = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({
      type: 'pkcs8',
      format: 'pem',
    }) as string;
    assert.throws(() => privateKeyFromPem(small), /RSA key of 1024 bits is too small/);
  });
});

describe('serviceAccountKeys', () => {
  const serving = source('the serving key "/data/pki/apiserver.key"', pem.ecPkcs8);

  it('signs and verifies with the serving key when no flag names a key', () => {
    const keys = serviceAccountKeys({ verifying: [], serving });
    assert.equal(keys.signing.kid, kid(ec.publicKey));
    assert.deepEqual(
      keys.verifying.map((k) => k.kid),
      [kid(ec.publicKey)],
    );
  });

  it('verifies with every key of every key file, the signing key among them', () => {
    const keys = serviceAccountKeys({
      signing: source('--service-account-signing-key-file "/k/sa.key"', pem.rsaPkcs1),
      verifying: [
        source('--service-account-key-file "/k/old.pub"', pem.ecPublic),
        source('--service-account-key-file "/k/sa.pub"', pem.rsaPublicPkix + pem.ec384),
      ],
      serving,
    });
    assert.equal(keys.signing.alg, 'RS256');
    assert.equal(keys.verifying.length, 3);
  });

  it('refuses a signing key no verification key accepts, naming the flags', () => {
    assert.throws(
      () =>
        serviceAccountKeys({
          signing: source('--service-account-signing-key-file "/k/sa.key"', pem.rsaPkcs1),
          verifying: [],
          serving,
        }),
      {
        message:
          '--service-account-signing-key-file "/k/sa.key": its public key is not among the keys of the serving key "/data/pki/apiserver.key" (the default of --service-account-key-file), so the tokens it signs would not authenticate',
      },
    );
    assert.throws(
      () =>
        serviceAccountKeys({
          verifying: [source('--service-account-key-file "/k/other.pub"', pem.rsaPublicPkix)],
          serving,
        }),
      /^Error: the serving key "\/data\/pki\/apiserver.key": its public key is not among the keys of --service-account-key-file/,
    );
  });

  it('names the flag and file of a key it cannot use, and no key material', () => {
    const bad = (text: string) => () =>
      serviceAccountKeys({
        signing: source('--service-account-signing-key-file "/k/sa.key"', text),
        verifying: [],
        serving,
      });
    assert.throws(bad(pem.ecPublic), (e: Error) => {
      assert.equal(
        e.message,
        '--service-account-signing-key-file "/k/sa.key": data does not contain a valid RSA or ECDSA private key',
      );
      assert.ok(!e.message.includes('BEGIN'));
      return true;
    });
    assert.throws(
      () => serviceAccountKeys({ verifying: [source('--service-account-key-file "/k/x"', 'junk')], serving }),
      {
        message:
          '--service-account-key-file "/k/x": data does not contain any valid RSA or ECDSA public keys',
      },
    );
  });

  it('keyId is a one-way digest of the public key, the same for its private half', () => {
    assert.equal(keyId(rsa.publicKey), kid(rsa.publicKey));
    assert.equal(privateKeyFromPem(pem.rsaPkcs8).kid, publicKeysFromPem(pem.rsaPublicPkcs1)[0].kid);
  });
});
