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

/**
 * The proxy's settings: fixed at start, or read on each request from a source that may change them (a
 * delegating server follows its host's ConfigMap); a source with no settings at the moment trusts no proxy.
 */
export type RequestHeaderSource = RequestHeaderOptions | (() => RequestHeaderOptions | undefined);

export class RequestHeaderAuthenticator implements Authenticator {
  /** per settings, per connection (chain): whether its common name may act as a proxy */
  private readonly allowed = new WeakMap<
    RequestHeaderOptions,
    WeakMap<readonly X509Certificate[], boolean>
  >();
  private readonly options: () => RequestHeaderOptions | undefined;

  constructor(options: RequestHeaderSource) {
    this.options = typeof options === 'function' ? options : () => options;
  }

  async authenticate(request: AuthenticationRequest): Promise<UserInfo | undefined> {
    const chain = request.peerCertificates();
    if (!chain) return undefined;
    const options = this.options();
    if (!options) return undefined;
    try {
      options.ca.verify(chain);
    } catch (e) {
      if (e instanceof CertificateError) throw ApiError.unauthorized();
      throw e;
    }
    let seen = this.allowed.get(options);
    if (!seen) this.allowed.set(options, (seen = new WeakMap()));
    let allowed = seen.get(chain);
    if (allowed === undefined) {
      const names = options.allowedNames;
      allowed = names.length === 0 || names.includes(commonName(chain[0]) ?? '');
      seen.set(chain, allowed);
    }
    if (!allowed) throw ApiError.unauthorized();
    return headerUser(request.rawHeaders, options);
  }
}
