/**
 * The keys of service-account tokens, read from PEM as kube reads them: one private key signs
 * (--service-account-signing-key-file), every key of every --service-account-key-file verifies (private keys
 * give their public half, certificates their key). Both default to the serving key, so the server needs no
 * flag to issue tokens it accepts. Errors name the flag and file, never key material.
 */
import { createHash, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';

export type SigningAlgorithm = 'RS256' | 'ES256' | 'ES384' | 'ES512';

export interface VerificationKey {
  publicKey: KeyObject;
  alg: SigningAlgorithm;
  /** kube's key id: base64url SHA-256 of the DER public key */
  kid: string;
}

export interface SigningKey extends VerificationKey {
  privateKey: KeyObject;
}

export interface ServiceAccountKeys {
  signing: SigningKey;
  verifying: VerificationKey[];
}

/** The curves kube signs with, by Node's name for them. */
const CURVES: Record<string, SigningAlgorithm> = {
  prime256v1: 'ES256',
  secp384r1: 'ES384',
  secp521r1: 'ES512',
};

/** RS256 for RSA (kube signs RSA only so), ES256/384/512 by curve; undefined for any other key. */
export function algorithmOf(key: KeyObject): SigningAlgorithm | undefined {
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  if (key.asymmetricKeyType === 'ec') return CURVES[key.asymmetricKeyDetails?.namedCurve ?? ''];
  return undefined;
}

/** Derived one way from the public key, so a key id published in a JWKS or a token header reveals nothing. */
export function keyId(publicKey: KeyObject): string {
  return createHash('sha256')
    .update(publicKey.export({ type: 'spki', format: 'der' }))
    .digest('base64url');
}

function verificationKey(publicKey: KeyObject): VerificationKey | undefined {
  const alg = algorithmOf(publicKey);
  return alg && { publicKey, alg, kid: keyId(publicKey) };
}

/** Each PEM block of a file (a file may hold several keys, or parameters beside a key). */
function pemBlocks(pem: string): string[] {
  return pem.match(/-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----/g) ?? [];
}

function privateKeyOf(block: string): KeyObject | undefined {
  try {
    return createPrivateKey(block);
  } catch {
    return undefined;
  }
}

function publicKeyOf(block: string): KeyObject | undefined {
  const privateKey = privateKeyOf(block);
  if (privateKey) return createPublicKey(privateKey);
  try {
    return createPublicKey(block);
  } catch {
    return undefined;
  }
}

/** Every RSA or ECDSA key in `pem` (kube's PublicKeysFromFile); blocks of other kinds are skipped. */
export function publicKeysFromPem(pem: string): VerificationKey[] {
  const keys = pemBlocks(pem).flatMap((block) => {
    const publicKey = publicKeyOf(block);
    const key = publicKey && verificationKey(publicKey);
    return key ? [key] : [];
  });
  if (keys.length === 0) throw new Error('data does not contain any valid RSA or ECDSA public keys');
  return keys;
}

/** The first RSA or ECDSA private key in `pem` (kube's PrivateKeyFromFile). */
export function privateKeyFromPem(pem: string): SigningKey {
  for (const block of pemBlocks(pem)) {
    const privateKey = privateKeyOf(block);
    const key = privateKey && verificationKey(createPublicKey(privateKey));
    if (privateKey && key) {
      // jose (and RFC 7518) refuse to sign RS256 with less
      const bits = privateKey.asymmetricKeyDetails?.modulusLength;
      if (bits !== undefined && bits < 2048)
        throw new Error(`an RSA key of ${bits} bits is too small (2048 at least)`);
      return { ...key, privateKey };
    }
  }
  throw new Error('data does not contain a valid RSA or ECDSA private key');
}

/** A key file's contents, or where it came from. */
export interface KeySource {
  /** how an error names it: `--service-account-key-file "/path"` */
  name: string;
  pem: string;
}

export interface KeySources {
  /** --service-account-signing-key-file; unset: the serving key */
  signing?: KeySource;
  /** --service-account-key-file, each; none: the serving key */
  verifying: KeySource[];
  /** the serving key (--tls-private-key-file or the generated one) */
  serving: KeySource;
}

function named<T>(source: KeySource, read: (pem: string) => T): T {
  try {
    return read(source.pem);
  } catch (e) {
    throw new Error(`${source.name}: ${(e as Error).message}`);
  }
}

/**
 * The signing key and the verification keys; refuses a signing key whose tokens no verification key would
 * accept (kube starts with such flags, and then rejects every token it issues).
 */
export function serviceAccountKeys(sources: KeySources): ServiceAccountKeys {
  const signingSource = sources.signing ?? sources.serving;
  const signing = named(signingSource, privateKeyFromPem);
  const verifyingSources = sources.verifying.length > 0 ? sources.verifying : [sources.serving];
  const verifying = verifyingSources.flatMap((s) => named(s, publicKeysFromPem));
  if (!verifying.some((k) => k.kid === signing.kid)) {
    throw new Error(
      `${signingSource.name}: its public key is not among the keys of ${
        sources.verifying.length > 0
          ? '--service-account-key-file'
          : `${sources.serving.name} (the default of --service-account-key-file)`
      }, so the tokens it signs would not authenticate`,
    );
  }
  return { signing, verifying };
}

export interface KeyFiles {
  signingKeyFile?: string;
  keyFiles: readonly string[];
  /** the serving key's PEM and how to name it */
  serving: KeySource;
}

async function source(flag: string, file: string): Promise<KeySource> {
  const name = `${flag} ${JSON.stringify(file)}`;
  try {
    return { name, pem: await readFile(file, 'utf8') };
  } catch (e) {
    throw new Error(`${name}: cannot read it (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

/** Reads the flags' files and checks them together (start-up: an error here stops the server). */
export async function loadServiceAccountKeys(files: KeyFiles): Promise<ServiceAccountKeys> {
  return serviceAccountKeys({
    signing: files.signingKeyFile
      ? await source('--service-account-signing-key-file', files.signingKeyFile)
      : undefined,
    verifying: await Promise.all(files.keyFiles.map((f) => source('--service-account-key-file', f))),
    serving: files.serving,
  });
}
