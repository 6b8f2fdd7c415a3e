/**
 * Certificates for tests: CAs of their own, client certificates with chosen names, dates and usages, and the
 * data dir's CA of a running server (to sign as that server's client CA).
 */
import { createHash, X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { generateCa, issue, loadSigner, type KeyPair, type Signer } from '../../src/pki/certificates.js';

export interface TestCa extends KeyPair {
  signer: Signer;
}

export async function testCa(name: string): Promise<TestCa> {
  const pair = await generateCa(name, 30);
  return { ...pair, signer: await loadSigner(pair.cert, pair.key, name, name) };
}

/** The CA a server made in its data dir (pki/ca.crt, pki/ca.key). */
export async function dataDirCa(dataDir: string): Promise<TestCa> {
  const cert = await readFile(path.join(dataDir, 'pki', 'ca.crt'), 'utf8');
  const key = await readFile(path.join(dataDir, 'pki', 'ca.key'), 'utf8');
  return { cert, key, signer: await loadSigner(cert, key, 'ca.crt', 'ca.key') };
}

export interface ClientCertificate {
  cn: string;
  groups?: string[];
  notBefore?: Date;
  /** default: in an hour */
  notAfter?: Date;
  /** default client */
  usage?: 'client' | 'server';
  /** an intermediate CA */
  ca?: boolean;
}

export function clientCertificate(ca: TestCa, c: ClientCertificate): Promise<KeyPair> {
  return issue(ca.signer, {
    commonName: c.cn,
    organizations: c.groups,
    usage: c.usage ?? 'client',
    notBefore: c.notBefore,
    notAfter: c.notAfter ?? new Date(Date.now() + 3600_000),
    ca: c.ca,
  });
}

/** An intermediate CA under `ca`, able to sign client certificates; its `cert` is what a client sends after the leaf. */
export async function intermediateCa(ca: TestCa, name: string): Promise<TestCa> {
  const pair = await clientCertificate(ca, { cn: name, ca: true });
  return { ...pair, signer: await loadSigner(pair.cert, pair.key, name, name) };
}

/** kube's credential id of a client certificate: `X509SHA256=<hex of the DER's SHA-256>`. */
export function credentialId(certPem: string): string {
  return `X509SHA256=${createHash('sha256').update(new X509Certificate(certPem).raw).digest('hex')}`;
}
