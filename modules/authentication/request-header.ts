/**
 * The authenticating proxy (kube's request header authenticator): a front proxy that presents a client
 * certificate signed by `--requestheader-client-ca-file`, with a common name in `--requestheader-allowed-names`
 * when that list is given, names the user in headers (`X-Remote-User`, `X-Remote-Uid`, `X-Remote-Group`,
 * `X-Remote-Extra-<key>`). Headers on any other connection mean nothing here: without a certificate this
 * authenticator has no opinion; with a certificate the proxy CA does not verify, or a common name not
 * allowed, it refuses (401 unless the client CA verifies the certificate: then it is that client's own).
 */
import type { X509Certificate } from 'node:crypto';
import { ApiError, type UserInfo } from '../api/index.js';
import { withAuthenticatedGroup, type AuthenticationRequest, type Authenticator } from './authenticator.js';
import { CertificateError, type CertificatePool } from './certificate-pool.js';
import { commonName } from './x509.js';

/** The header names a proxy uses (kube's RequestHeaderConfig); names match whatever their case. */
export interface RequestHeaderNames {
  usernameHeaders: readonly string[];
  uidHeaders: readonly string[];
  groupHeaders: readonly string[];
  extraHeaderPrefixes: readonly string[];
}

export interface RequestHeaderOptions extends RequestHeaderNames {
  /** --requestheader-client-ca-file */
  ca: CertificatePool;
  /** --requestheader-allowed-names: empty allows every certificate the CA verifies */
  allowedNames: readonly string[];
}

/** kube's unescapeExtraKey (Go's PathUnescape): %XX escapes decoded; a malformed escape keeps the key as sent. */
function unescapeKey(key: string): string {
  if (!key.includes('%')) return key;
  const bytes: number[] = [];
  for (let i = 0; i < key.length; i++) {
    if (key[i] !== '%') {
      bytes.push(key.charCodeAt(i) & 0xff);
      continue;
    }
    const hex = key.slice(i + 1, i + 3);
    if (!/^[0-9a-fA-F]{2}$/.test(hex)) return key;
    bytes.push(parseInt(hex, 16));
    i += 2;
  }
  return Buffer.from(bytes).toString('utf8');
}

/**
 * The user the headers name, as kube reads them: the first header of the username list whose first value is
 * not empty; the same for the UID; every non-empty value of every group header; for each extra prefix, each
 * header starting with it (any case), its key lower-cased then percent-decoded, all its values.
 * Undefined when no username header has a value.
 */
export function headerUser(rawHeaders: readonly string[], names: RequestHeaderNames): UserInfo | undefined {
  const values = new Map<string, string[]>();
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i].toLowerCase();
    let list = values.get(name);
    if (!list) values.set(name, (list = []));
    list.push(rawHeaders[i + 1]);
  }
  const first = (headers: readonly string[]) =>
    headers.map((h) => values.get(h.toLowerCase())?.[0] ?? '').find((v) => v.length > 0);
  const name = first(names.usernameHeaders);
  if (!name) return undefined;
  const groups = names.groupHeaders.flatMap((h) => (values.get(h.toLowerCase()) ?? []).filter(Boolean));
  const extra: Record<string, string[]> = {};
  for (const prefix of names.extraHeaderPrefixes.map((p) => p.toLowerCase())) {
    for (const [header, vals] of values) {
      if (!header.startsWith(prefix)) continue;
      const key = unescapeKey(header.slice(prefix.length));
      (extra[key] ??= []).push(...vals);
    }
  }
  const user: UserInfo = { name, uid: first(names.uidHeaders) ?? '', groups };
  if (Object.keys(extra).length > 0) user.extra = extra;
  return withAuthenticatedGroup(user);
}

export class RequestHeaderAuthenticator implements Authenticator {
  /** per connection (chain): whether its common name may act as a proxy */
  private readonly allowed = new WeakMap<readonly X509Certificate[], boolean>();

  constructor(private readonly options: RequestHeaderOptions) {}

  async authenticate(request: AuthenticationRequest): Promise<UserInfo | undefined> {
    const chain = request.peerCertificates();
    if (!chain) return undefined;
    try {
      this.options.ca.verify(chain);
    } catch (e) {
      if (e instanceof CertificateError) throw ApiError.unauthorized();
      throw e;
    }
    let allowed = this.allowed.get(chain);
    if (allowed === undefined) {
      const names = this.options.allowedNames;
      allowed = names.length === 0 || names.includes(commonName(chain[0]) ?? '');
      this.allowed.set(chain, allowed);
    }
    if (!allowed) throw ApiError.unauthorized();
    return headerUser(request.rawHeaders, this.options);
  }
}
