/** Serving certificate: the configured files, or one the data dir's CA signs, made once into the data dir. */
import { X509Certificate } from 'node:crypto';
import { existsSync } from 'node:fs';
import { isIP } from 'node:net';
import { readFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { issue, loadSigner } from '../pki/certificates.js';
import { PKI_FILES, pkiDir, type DataDirCa } from '../pki/data-dir-ca.js';
import { writePrivateFile, writePublicFile } from '../pki/private-files.js';

export interface ServingTls {
  cert: string;
  key: string;
  /** the CA clients should trust (the data dir's CA, or the configured serving certificate itself) */
  ca: string;
  /** CA certificates (PEM) whose client certificates the server asks for (client CA, proxy CA) */
  clientCas?: string[];
}

const SERVING_DAYS = 365;

/** The names the generated certificate is for: loopback, the host, the bind address, and --tls-san. */
function servingNames(bindAddress: string, sans: readonly string[]): { dns: string[]; ips: string[] } {
  const ips = ['127.0.0.1', '::1'];
  if (isIP(bindAddress) && !['0.0.0.0', '::'].includes(bindAddress)) ips.push(bindAddress);
  const dns = ['localhost', hostname()];
  for (const san of sans) (isIP(san) ? ips : dns).push(san);
  return { dns: [...new Set(dns)], ips: [...new Set(ips)] };
}

async function generate(
  ca: DataDirCa,
  names: { dns: string[]; ips: string[] },
): Promise<{ cert: string; key: string }> {
  const signer = await loadSigner(ca.cert, ca.key, 'pki/ca.crt', 'pki/ca.key');
  return issue(signer, {
    commonName: 'pgkube',
    usage: 'server',
    notAfter: new Date(Date.now() + SERVING_DAYS * 24 * 3600 * 1000),
    dnsNames: names.dns,
    ipAddresses: names.ips,
  });
}

/** One spelling per address (Node writes IPv6 SANs uncompressed): IPv6 compressed as URLs write it. */
function canonicalIp(ip: string): string {
  return isIP(ip) === 6 ? new URL(`http://[${ip}]`).hostname : ip;
}

/** A certificate made before a --tls-san was added is made again rather than served without the name. */
function coversNames(pem: string, names: { dns: string[]; ips: string[] }): boolean {
  const have = new Set(
    (new X509Certificate(pem).subjectAltName ?? '')
      .split(', ')
      .map((n) => (n.startsWith('IP Address:') ? `IP:${canonicalIp(n.slice(11))}` : n)),
  );
  return (
    names.dns.every((n) => have.has(`DNS:${n}`)) && names.ips.every((ip) => have.has(`IP:${canonicalIp(ip)}`))
  );
}

export async function servingTls(options: {
  dataDir: string;
  bindAddress: string;
  ca: DataDirCa;
  certFile?: string;
  keyFile?: string;
  /** --tls-san */
  sans?: readonly string[];
}): Promise<ServingTls> {
  if (options.certFile && options.keyFile) {
    const cert = await readFile(options.certFile, 'utf8');
    return { cert, key: await readFile(options.keyFile, 'utf8'), ca: cert };
  }
  const dir = pkiDir(options.dataDir);
  const certFile = path.join(dir, PKI_FILES.servingCert);
  const keyFile = path.join(dir, PKI_FILES.servingKey);
  const names = servingNames(options.bindAddress, options.sans ?? []);
  // a new CA (a new data dir, or an old one whose CA had no key) signs a new serving certificate
  if (!options.ca.created && existsSync(keyFile)) {
    const cert = await readFile(certFile, 'utf8');
    if (coversNames(cert, names)) return { cert, key: await readFile(keyFile, 'utf8'), ca: options.ca.cert };
  }
  const serving = await generate(options.ca, names);
  await writePublicFile(certFile, serving.cert);
  await writePrivateFile(keyFile, serving.key);
  return { ...serving, ca: options.ca.cert };
}
