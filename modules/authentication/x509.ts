/**
 * Client certificates (`--client-ca-file`, by default the data dir's CA), as kube's x509 authenticator: the
 * subject's common name is the user, each organization a group, and the certificate's SHA-256 is the
 * credential id in `extra`. A certificate without a common name is no user (nor an error); one that does not
 * verify is a 401, unless a later authenticator (a bearer token) finds the user.
 */
import type { X509Certificate } from 'node:crypto';
import { ApiError, type UserInfo } from '../api/index.js';
import { withAuthenticatedGroup, type AuthenticationRequest, type Authenticator } from './authenticator.js';
import { CertificateError, type CertificatePool } from './certificate-pool.js';

/** kube's user.CredentialIDKey */
export const CREDENTIAL_ID = 'authentication.kubernetes.io/credential-id';

type SubjectField = string | string[] | undefined;

function all(field: SubjectField): string[] {
  return field === undefined ? [] : Array.isArray(field) ? field : [field];
}

function subject(leaf: X509Certificate): Record<string, SubjectField> {
  return leaf.toLegacyObject().subject as unknown as Record<string, SubjectField>;
}

/** The subject's common name as Go reads it: the last one, when there are several. */
export function commonName(leaf: X509Certificate): string | undefined {
  return all(subject(leaf).CN).at(-1);
}

/** The user a verified leaf certificate names: its common name, every organization in order as a group. */
export function certificateUser(leaf: X509Certificate): UserInfo | undefined {
  const name = commonName(leaf);
  if (!name) return undefined;
  const fingerprint = leaf.fingerprint256.replaceAll(':', '').toLowerCase();
  return Object.freeze(
    withAuthenticatedGroup({
      name,
      uid: '',
      groups: all(subject(leaf).O),
      extra: { [CREDENTIAL_ID]: [`X509SHA256=${fingerprint}`] },
    }),
  );
}

/**
 * The CAs that judge certificates: fixed at start, or read anew on each request from a source that may change
 * them (a delegating server follows its host's ConfigMap); a source with no CA at the moment judges nothing.
 */
export type CertificatePoolSource = CertificatePool | (() => CertificatePool | undefined);

export class X509Authenticator implements Authenticator {
  /** per connection (chain): the user, or null for a certificate that names none */
  private readonly users = new WeakMap<readonly X509Certificate[], UserInfo | null>();
  private readonly pool: () => CertificatePool | undefined;

  constructor(pool: CertificatePoolSource) {
    this.pool = typeof pool === 'function' ? pool : () => pool;
  }

  async authenticate(request: AuthenticationRequest): Promise<UserInfo | undefined> {
    const chain = request.peerCertificates();
    if (!chain) return undefined;
    const pool = this.pool();
    if (!pool) return undefined;
    try {
      // a pool caches its verdict per chain: a new pool judges a connection anew
      pool.verify(chain);
    } catch (e) {
      if (e instanceof CertificateError) throw ApiError.unauthorized();
      throw e;
    }
    let user = this.users.get(chain);
    if (user === undefined) {
      user = certificateUser(chain[0]) ?? null;
      this.users.set(chain, user);
    }
    return user ?? undefined;
  }
}
