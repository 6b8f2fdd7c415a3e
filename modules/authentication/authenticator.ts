/**
 * What an authenticator sees of a request, and what it answers: the user, or nothing when the request
 * carries no credential of its kind. A credential of its kind that is not valid is a 401 (thrown).
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { PeerCertificate } from 'node:tls';
import type { UserInfo } from '../api/index.js';

export interface AuthenticationRequest {
  headers: IncomingHttpHeaders;
  /** the verified TLS client certificate, if the client sent one (read on demand: it costs a copy) */
  peerCertificate(): PeerCertificate | undefined;
}

export interface Authenticator {
  authenticate(request: AuthenticationRequest): Promise<UserInfo | undefined>;
}
