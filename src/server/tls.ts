/** Serving certificate: the configured files, or one the data dir's CA signs, made once into the data dir. */
import { existsSync } from 'node:fs';
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

async function generate(ca: DataDirCa, bindAddress: string): Promise<{ cert: string; key: string }> {
  const ips = ['127.0.0.1', '::1'];
  if (/^[\d.]+$|:/.test(bindAddress) && !['127.0.0.1', '::1', '0.0.0.0', '::'].includes(bindAddress)) {
    ips.push(bindAddress);
  }
  const signer = await loadSigner(ca.cert, ca.key, 'pki/ca.crt', 'pki/ca.key');
  return issue(signer, {
    commonName: 'pgkube',
    usage: 'server',
    notAfter: new Date(Date.now() + SERVING_DAYS * 24 * 3600 * 1000),
    dnsNames: ['localhost', hostname()],
    ipAddresses: ips,
  });
}

export async function servingTls(options: {
  dataDir: string;
  bindAddress: string;
  ca: DataDirCa;
  certFile?: string;
  keyFile?: string;
}): Promise<ServingTls> {
  if (options.certFile && options.keyFile) {
    const cert = await readFile(options.certFile, 'utf8');
    return { cert, key: await readFile(options.keyFile, 'utf8'), ca: cert };
  }
  const dir = pkiDir(options.dataDir);
  const certFile = path.join(dir, PKI_FILES.servingCert);
  const keyFile = path.join(dir, PKI_FILES.servingKey);
  // a new CA (a new data dir, or an old one whose CA had no key) signs a new serving certificate
  if (!options.ca.created && existsSync(keyFile)) {
    return {
      cert: await readFile(certFile, 'utf8'),
      key: await readFile(keyFile, 'utf8'),
      ca: options.ca.cert,
    };
  }
  const serving = await generate(options.ca, options.bindAddress);
  await writePublicFile(certFile, serving.cert);
  await writePrivateFile(keyFile, serving.key);
  return { ...serving, ca: options.ca.cert };
}
