/**
 * The front-proxy pair, as kubeadm makes it: a CA of its own (`pki/front-proxy-ca.crt`/`.key`) and the client
 * certificate the host presents to aggregated servers (`pki/front-proxy-client.crt`/`.key`, CN
 * `front-proxy-client`). Aggregated servers trust identity headers only under this CA, so it is apart from the
 * data dir's CA, whose client certificates are users. Made once, kept across restarts.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { generateCa, issue, loadSigner, type KeyPair } from './certificates.js';
import { pkiDir } from './data-dir-ca.js';
import { writePrivateFile, writePublicFile } from './private-files.js';

export const FRONT_PROXY_CLIENT = 'front-proxy-client';
const CA_DAYS = 10 * 365;
const CLIENT_DAYS = 365;

export interface FrontProxy {
  /** the CA's certificate: --requestheader-client-ca-file's role, published to aggregated servers */
  caPem: string;
  /** what the host presents to them */
  client: KeyPair;
}

async function readPair(dir: string, name: string): Promise<KeyPair | undefined> {
  // the key is written last: without it the pair is incomplete
  if (!existsSync(path.join(dir, `${name}.key`))) return undefined;
  return {
    cert: await readFile(path.join(dir, `${name}.crt`), 'utf8'),
    key: await readFile(path.join(dir, `${name}.key`), 'utf8'),
  };
}

async function writePair(dir: string, name: string, pair: KeyPair): Promise<void> {
  await writePublicFile(path.join(dir, `${name}.crt`), pair.cert);
  await writePrivateFile(path.join(dir, `${name}.key`), pair.key);
}

export async function frontProxy(dataDir: string): Promise<FrontProxy> {
  const dir = pkiDir(dataDir);
  let ca = await readPair(dir, 'front-proxy-ca');
  let client = ca && (await readPair(dir, FRONT_PROXY_CLIENT));
  if (!ca) {
    ca = await generateCa('front-proxy-ca', CA_DAYS);
    await writePair(dir, 'front-proxy-ca', ca);
  }
  if (!client) {
    const signer = await loadSigner(ca.cert, ca.key, 'pki/front-proxy-ca.crt', 'pki/front-proxy-ca.key');
    client = await issue(signer, {
      commonName: FRONT_PROXY_CLIENT,
      usage: 'client',
      notAfter: new Date(Date.now() + CLIENT_DAYS * 24 * 3600 * 1000),
    });
    await writePair(dir, FRONT_PROXY_CLIENT, client);
  }
  return { caPem: ca.cert, client };
}
