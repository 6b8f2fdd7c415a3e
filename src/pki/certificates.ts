/**
 * Certificates pgkube makes itself: its CA, the serving certificate and the client certificates that CA
 * signs (`pgkube kubeconfig`). New keys are ECDSA P-256; a CA of your own (`--client-ca-file` with
 * `--client-ca-key-file`) may hold an RSA or ECDSA key.
 */
// @peculiar/x509 (through tsyringe) needs the Reflect metadata API loaded before it
import 'reflect-metadata';
import { createPrivateKey, randomBytes, webcrypto, X509Certificate, type KeyObject } from 'node:crypto';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as never);

type CryptoKey = webcrypto.CryptoKey;

/** A certificate and its private key, both PEM. */
export interface KeyPair {
  cert: string;
  key: string;
}

/** A CA that can sign: its certificate and its key, imported for WebCrypto. */
export interface Signer {
  cert: x509.X509Certificate;
  key: CryptoKey;
  algorithm: SigningAlgorithm;
}

interface SigningAlgorithm {
  name: string;
  hash: string;
}

const P256 = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const DAY_MS = 24 * 3600 * 1000;
/** a certificate is valid from a little before it is made: clocks of client and server differ */
const BACKDATE_MS = 5 * 60 * 1000;

async function pemKey(key: CryptoKey): Promise<string> {
  const der = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', key));
  return x509.PemConverter.encode(der, 'PRIVATE KEY') + '\n';
}

function pem(cert: x509.X509Certificate): string {
  return cert.toString('pem') + '\n';
}

/** Positive, 16 random bytes: unique without a counter (RFC 5280 allows up to 20 octets). */
function serialNumber(): string {
  const bytes = randomBytes(16);
  bytes[0] &= 0x7f;
  return bytes.toString('hex');
}

function newKeys(): Promise<webcrypto.CryptoKeyPair> {
  return webcrypto.subtle.generateKey(P256, true, ['sign', 'verify']) as Promise<webcrypto.CryptoKeyPair>;
}

/** A self-signed CA, valid `days` from now. */
export async function generateCa(commonName: string, days: number): Promise<KeyPair> {
  const keys = await newKeys();
  const now = Date.now();
  const ca = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serialNumber(),
    name: [{ CN: [commonName] }],
    notBefore: new Date(now - BACKDATE_MS),
    notAfter: new Date(now + days * DAY_MS),
    keys,
    signingAlgorithm: P256,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(
        x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign | x509.KeyUsageFlags.digitalSignature,
        true,
      ),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { cert: pem(ca), key: await pemKey(keys.privateKey) };
}

/** The WebCrypto form of a PEM private key (PKCS#1, SEC1 or PKCS#8) and the signature it makes. */
async function importSigningKey(key: KeyObject): Promise<{ key: CryptoKey; algorithm: SigningAlgorithm }> {
  const der = key.export({ format: 'der', type: 'pkcs8' });
  if (key.asymmetricKeyType === 'rsa') {
    const algorithm = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' };
    return { key: await webcrypto.subtle.importKey('pkcs8', der, algorithm, false, ['sign']), algorithm };
  }
  if (key.asymmetricKeyType === 'ec') {
    const curve = key.asymmetricKeyDetails?.namedCurve;
    const params = {
      prime256v1: { namedCurve: 'P-256', hash: 'SHA-256' },
      secp384r1: { namedCurve: 'P-384', hash: 'SHA-384' },
      secp521r1: { namedCurve: 'P-521', hash: 'SHA-512' },
    }[curve ?? ''];
    if (params) {
      const algorithm = { name: 'ECDSA', ...params };
      return { key: await webcrypto.subtle.importKey('pkcs8', der, algorithm, false, ['sign']), algorithm };
    }
  }
  throw new Error(
    `the key is ${key.asymmetricKeyType} ${key.asymmetricKeyDetails?.namedCurve ?? ''}: only RSA and ECDSA (P-256, P-384, P-521) keys can sign`,
  );
}

/**
 * A CA from its PEM certificate and key. Errors say what is wrong without the key's text: `certName` and
 * `keyName` name where they came from (a flag or a file).
 */
export async function loadSigner(
  certPem: string,
  keyPem: string,
  certName: string,
  keyName: string,
): Promise<Signer> {
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(certPem);
  } catch {
    throw new Error(`${certName}: no PEM certificate`);
  }
  let key: KeyObject;
  try {
    key = createPrivateKey(keyPem);
  } catch {
    throw new Error(`${keyName}: no PEM private key (or it is encrypted)`);
  }
  if (!cert.ca) throw new Error(`${certName}: the certificate is not a CA (basic constraints)`);
  if (!cert.checkPrivateKey(key)) throw new Error(`${keyName} is not the key of ${certName}`);
  const imported = await importSigningKey(key).catch((e: Error) => {
    throw new Error(`${keyName}: ${e.message}`);
  });
  return { cert: new x509.X509Certificate(cert.raw), ...imported };
}

export interface Issue {
  /** subject common name */
  commonName: string;
  /** subject organizations (kube: the user's groups) */
  organizations?: readonly string[];
  usage: 'server' | 'client';
  /** default: a few minutes ago (clocks differ) */
  notBefore?: Date;
  notAfter: Date;
  /** an intermediate CA that may sign client certificates itself */
  ca?: boolean;
  /** server certificates: DNS names and IP addresses */
  dnsNames?: readonly string[];
  ipAddresses?: readonly string[];
}

/** A new key and a certificate for it signed by `ca`; never valid past the CA itself. */
export async function issue(ca: Signer, what: Issue): Promise<KeyPair> {
  const keys = await newKeys();
  const notAfter = what.notAfter > ca.cert.notAfter ? ca.cert.notAfter : what.notAfter;
  const names: x509.JsonGeneralName[] = [
    ...(what.dnsNames ?? []).map((value) => ({ type: 'dns' as const, value })),
    ...(what.ipAddresses ?? []).map((value) => ({ type: 'ip' as const, value })),
  ];
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serialNumber(),
    // Go's order (pkix.Name): organizations, then the common name
    subject: [...(what.organizations ?? []).map((o) => ({ O: [o] })), { CN: [what.commonName] }],
    issuer: ca.cert.subject,
    notBefore: what.notBefore ?? new Date(Date.now() - BACKDATE_MS),
    notAfter,
    signingKey: ca.key,
    publicKey: keys.publicKey,
    signingAlgorithm: ca.algorithm,
    extensions: [
      new x509.BasicConstraintsExtension(what.ca ?? false, undefined, true),
      new x509.KeyUsagesExtension(
        x509.KeyUsageFlags.digitalSignature | (what.ca ? x509.KeyUsageFlags.keyCertSign : 0),
        true,
      ),
      ...(what.ca ? [await x509.SubjectKeyIdentifierExtension.create(keys.publicKey)] : []),
      new x509.ExtendedKeyUsageExtension([
        what.usage === 'server' ? x509.ExtendedKeyUsage.serverAuth : x509.ExtendedKeyUsage.clientAuth,
      ]),
      await x509.AuthorityKeyIdentifierExtension.create(ca.cert.publicKey),
      ...(names.length > 0 ? [new x509.SubjectAlternativeNameExtension(names)] : []),
    ],
  });
  return { cert: pem(cert), key: await pemKey(keys.privateKey) };
}
