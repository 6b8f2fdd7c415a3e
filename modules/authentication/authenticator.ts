/**
 * What an authenticator sees of a request, and what it answers: the user, or nothing when the request
 * carries no credential of its kind. A credential of its kind that is not valid is a 401 (thrown).
 */
import type { X509Certificate } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { ApiError, type UserInfo } from '../api/index.js';

export interface AuthenticationRequest {
  headers: IncomingHttpHeaders;
  /** name, value, name, value, ... as sent: a repeated header is several values, a comma stays in its value */
  rawHeaders: readonly string[];
  /** the client's TLS certificate chain, leaf first, unverified; the same array for every request of a connection */
  peerCertificates(): readonly X509Certificate[] | undefined;
  /** the request's (decoded) path: anonymous access may be limited to some paths */
  path?: string;
  /**
   * The audiences the credential must be meant for (kube's audiences of the request context): the server's
   * --api-audiences for a request, or those a TokenReview asks about. Unset: no audience is checked.
   */
  audiences?: readonly string[];
}

/**
 * A user found. Authenticators that know which audiences a credential is meant for (webhook, service-account
 * tokens) say which of `request.audiences` it is good for; the others' credentials are good for the server's
 * own audiences only (kube's audience-agnostic authenticators).
 */
export interface Authenticated extends UserInfo {
  audiences?: readonly string[];
}

export interface Authenticator {
  authenticate(request: AuthenticationRequest): Promise<Authenticated | undefined>;
}

/**
 * A refused credential. The client learns only "Unauthorized", as from kube; `why` is for TokenReview's
 * status.error and the server's log, and never holds the credential itself.
 */
export class CredentialRefused extends ApiError {
  constructor(readonly why: string) {
    super(401, 'Unauthorized', 'Unauthorized');
  }
}

/** kube's words when no token authenticator knows a bearer token */
export const INVALID_BEARER_TOKEN = 'invalid bearer token';

/**
 * The bearer token of a request, read as kube's bearer-token authenticator reads it: the header trimmed, split
 * on its first two spaces, the scheme `bearer` in any case, the token the second part (a third is ignored).
 * Anything else (no header, another scheme, an empty token) is not a bearer token: undefined, and the
 * request goes on as if it had none.
 */
export function bearerToken(request: AuthenticationRequest): string | undefined {
  const header = request.headers.authorization?.trim();
  if (!header) return undefined;
  const first = header.indexOf(' ');
  if (first < 0 || header.slice(0, first).toLowerCase() !== 'bearer') return undefined;
  const second = header.indexOf(' ', first + 1);
  const token = second < 0 ? header.slice(first + 1) : header.slice(first + 1, second);
  return token === '' ? undefined : token;
}

/**
 * kube's AuthenticatedGroupAdder: an authenticated user is in `system:authenticated`, unless it says
 * which of the two it is already or it is the anonymous user.
 */
export function withAuthenticatedGroup(user: UserInfo): UserInfo {
  if (user.name === 'system:anonymous') return user;
  if (user.groups.some((g) => g === 'system:authenticated' || g === 'system:unauthenticated')) return user;
  return { ...user, groups: [...user.groups, 'system:authenticated'] };
}
