/**
 * The node agent's serving certificate, as the kubelet finds it: tlsCertFile/tlsPrivateKeyFile when set, else
 * `<cert-dir>/kubelet.crt` and `kubelet.key`, made once if missing: a self-signed CA `<host>-ca@<time>` and a
 * certificate `<host>@<time>` for the node's name, both in kubelet.crt, the key 0600 in a 0700 directory.
 */
import { access } from 'node:fs/promises';
import { isIP } from 'node:net';
import path from 'node:path';
import { generateCa, issue, loadSigner } from '../pki/certificates.js';
import { makePrivateDir, writePrivateFile, writePublicFile } from '../pki/private-files.js';
import { readFlagFile } from '../config/flag-values.js';
import type { NodeAgentConfig } from './config.js';

const DAY_MS = 24 * 3600 * 1000;

export interface AgentTls {
  cert: string;
  key: string;
  /** the files they came from */
  certFile: string;
  keyFile: string;
}

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

export async function agentServingTls(config: NodeAgentConfig): Promise<AgentTls> {
  const { tlsCertFile, tlsPrivateKeyFile } = config.kubelet;
  if (tlsCertFile && tlsPrivateKeyFile)
    return {
      cert: await readFlagFile('tlsCertFile (--tls-cert-file)', tlsCertFile),
      key: await readFlagFile('tlsPrivateKeyFile (--tls-private-key-file)', tlsPrivateKeyFile),
      certFile: tlsCertFile,
      keyFile: tlsPrivateKeyFile,
    };
  const certFile = path.join(config.certDir, 'kubelet.crt');
  const keyFile = path.join(config.certDir, 'kubelet.key');
  if ((await exists(certFile)) && (await exists(keyFile)))
    return {
      cert: await readFlagFile('--cert-dir', certFile),
      key: await readFlagFile('--cert-dir', keyFile),
      certFile,
      keyFile,
    };
  const host = config.nodeName;
  const made = Math.floor(Date.now() / 1000);
  const notAfter = new Date(Date.now() + 365 * DAY_MS);
  const ca = await generateCa(`${host}-ca@${made}`, 365);
  const signer = await loadSigner(ca.cert, ca.key, 'the self-signed CA', 'its key');
  const leaf = await issue(signer, {
    commonName: `${host}@${made}`,
    usage: 'server',
    notAfter,
    dnsNames: isIP(host) ? [] : [host],
    ipAddresses: isIP(host) ? [host] : [],
  });
  await makePrivateDir(config.certDir);
  await writePrivateFile(keyFile, leaf.key);
  await writePublicFile(certFile, leaf.cert + ca.cert);
  return { cert: leaf.cert + ca.cert, key: leaf.key, certFile, keyFile };
}
