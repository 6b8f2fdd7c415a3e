/**
 * What an authenticator sees of a request, and what it answers: the user, or nothing when the request
 * carries no credential of its kind. A credential of its kind that is not valid is a 401 (thrown).
 */
import type { X509Certificate } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { UserInfo } from '../api/index.js';

export interface AuthenticationRequest {
  headers: IncomingHttpHeaders;
  /** name, value, name, value, ... as sent: a repeated header is several values, a comma stays in its value */
  rawHeaders: readonly string[];
  /** the client's TLS certificate chain, leaf first, unverified; the same array for every request of a connection */
  peerCertificates(): readonly X509Certificate[] | undefined;
}

export interface Authenticator {
  authenticate(request: AuthenticationRequest): Promise<UserInfo | undefined>;
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
