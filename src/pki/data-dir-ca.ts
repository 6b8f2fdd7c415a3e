/**
 * The data dir's CA (`pki/ca.crt`, `pki/ca.key`): it signs the generated serving certificate and, unless
 * `--client-ca-file` names another, it is the CA of client certificates (`pgkube kubeconfig` signs with it).
 * Made once, kept across restarts.
 */
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { generateCa, type KeyPair } from './certificates.js';
import { writePrivateFile, writePublicFile } from './private-files.js';

export const PKI_FILES = {
  caCert: 'ca.crt',
  caKey: 'ca.key',
  servingCert: 'apiserver.crt',
  servingKey: 'apiserver.key',
} as const;

const CA_DAYS = 10 * 365;

export function pkiDir(dataDir: string): string {
  return path.join(dataDir, 'pki');
}

export interface DataDirCa extends KeyPair {
  /** made at this start: whatever it signed before (a serving certificate) must be signed again */
  created: boolean;
  /** the data dir had a CA without its key (pgkube before client certificates kept none): this one replaced it */
  replaced: boolean;
}

/** The data dir's CA as it is, or undefined when no server has made one there yet. */
export async function readDataDirCa(dataDir: string): Promise<KeyPair | undefined> {
  const dir = pkiDir(dataDir);
  if (!existsSync(path.join(dir, PKI_FILES.caKey))) return undefined;
  return {
    cert: await readFile(path.join(dir, PKI_FILES.caCert), 'utf8'),
    key: await readFile(path.join(dir, PKI_FILES.caKey), 'utf8'),
  };
}

export async function dataDirCa(dataDir: string): Promise<DataDirCa> {
  const dir = pkiDir(dataDir);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
  const existing = await readDataDirCa(dataDir);
  if (existing) return { ...existing, created: false, replaced: false };
  const replaced = existsSync(path.join(dir, PKI_FILES.caCert));
  const ca = await generateCa('pgkube-ca', CA_DAYS);
  // the key last: its presence says the pair is complete
  await writePublicFile(path.join(dir, PKI_FILES.caCert), ca.cert);
  await writePrivateFile(path.join(dir, PKI_FILES.caKey), ca.key);
  return { ...ca, created: true, replaced };
}
