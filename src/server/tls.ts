/** Serving certificate: the configured files, or a CA and certificate generated once into the data dir. */
import { webcrypto } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import * as x509 from '@peculiar/x509';

export interface ServingTls {
  cert: string;
  key: string;
  /** the CA clients should trust (the generated CA, or the serving certificate itself) */
  ca: string;
}

const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const YEAR_MS = 365 * 24 * 3600 * 1000;

async function pemKey(key: webcrypto.CryptoKey): Promise<string> {
  const der = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', key));
  const body = der.toString('base64').replace(/.{64}/g, '$&\n').replace(/\n$/, '');
  return `-----BEGIN PRIVATE KEY-----\n${body}\n-----END PRIVATE KEY-----\n`;
}

async function generate(bindAddress: string): Promise<ServingTls> {
  x509.cryptoProvider.set(webcrypto as never);
  const notBefore = new Date(Date.now() - 60_000);
  const caKeys = (await webcrypto.subtle.generateKey(alg, true, [
    'sign',
    'verify',
  ])) as webcrypto.CryptoKeyPair;
  const ca = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: 'CN=pgkube-ca',
    notBefore,
    notAfter: new Date(Date.now() + 10 * YEAR_MS),
    keys: caKeys,
    signingAlgorithm: alg,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
    ],
  });
  const keys = (await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const names: x509.JsonGeneralName[] = [
    { type: 'dns', value: 'localhost' },
    { type: 'dns', value: hostname() },
    { type: 'ip', value: '127.0.0.1' },
    { type: 'ip', value: '::1' },
  ];
  if (/^[\d.]+$|:/.test(bindAddress) && !['127.0.0.1', '::1', '0.0.0.0', '::'].includes(bindAddress)) {
    names.push({ type: 'ip', value: bindAddress });
  }
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: '02',
    subject: 'CN=pgkube',
    issuer: ca.subject,
    notBefore,
    notAfter: new Date(Date.now() + YEAR_MS),
    signingKey: caKeys.privateKey,
    publicKey: keys.publicKey,
    signingAlgorithm: alg,
    extensions: [
      new x509.BasicConstraintsExtension(false),
      new x509.KeyUsagesExtension(
        x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment,
        true,
      ),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension(names),
    ],
  });
  return {
    cert: cert.toString('pem') + '\n',
    key: await pemKey(keys.privateKey),
    ca: ca.toString('pem') + '\n',
  };
}

export async function servingTls(options: {
  dataDir: string;
  bindAddress: string;
  certFile?: string;
  keyFile?: string;
}): Promise<ServingTls> {
  if (options.certFile && options.keyFile) {
    const cert = await readFile(options.certFile, 'utf8');
    return { cert, key: await readFile(options.keyFile, 'utf8'), ca: cert };
  }
  const dir = path.join(options.dataDir, 'pki');
  const files = { cert: 'apiserver.crt', key: 'apiserver.key', ca: 'ca.crt' } as const;
  if (existsSync(path.join(dir, files.key))) {
    return {
      cert: await readFile(path.join(dir, files.cert), 'utf8'),
      key: await readFile(path.join(dir, files.key), 'utf8'),
      ca: await readFile(path.join(dir, files.ca), 'utf8'),
    };
  }
  const tls = await generate(options.bindAddress);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await writeFile(path.join(dir, files.cert), tls.cert);
  await writeFile(path.join(dir, files.ca), tls.ca);
  await writeFile(path.join(dir, files.key), tls.key, { mode: 0o600 });
  return tls;
}
