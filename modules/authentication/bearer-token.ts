/**
 * Static bearer tokens (--token-auth-file and the generated admin token). Tokens are looked up by their
 * SHA-256 digest and the digests compared in constant time, so the time taken tells nothing about a token.
 */
import { timingSafeEqual } from 'node:crypto';
import type { UserInfo } from '../api/index.js';
import {
  bearerToken,
  CredentialRefused,
  INVALID_BEARER_TOKEN,
  type AuthenticationRequest,
  type Authenticator,
} from './authenticator.js';
import { tokenDigest } from './token-digest.js';

/**
 * One 401 for every refused token: every service-account or bootstrap token passes through here first, and
 * making an Error (its stack trace) would cost such a request more than authenticating it does.
 */
const REFUSED = new CredentialRefused(INVALID_BEARER_TOKEN);

export class BearerTokenAuthenticator implements Authenticator {
  /** each token's user as requests see it (with `system:authenticated`), made once: shared, so frozen */
  private readonly users = new Map<string, { digest: Buffer; user: UserInfo }>();

  constructor(tokens: ReadonlyMap<string, UserInfo>) {
    for (const [token, user] of tokens) {
      const groups = Object.freeze([...user.groups, 'system:authenticated']) as string[];
      const d = tokenDigest(token);
      this.users.set(d.base64, { digest: d.bytes, user: Object.freeze({ ...user, groups }) });
    }
  }

  /** No Authorization header: not ours. A bearer token we don't know: 401, even though anonymous access exists. */
  async authenticate(request: AuthenticationRequest): Promise<UserInfo | undefined> {
    const token = bearerToken(request);
    if (token === undefined) return undefined;
    const d = tokenDigest(token);
    const entry = this.users.get(d.base64);
    if (!entry || !timingSafeEqual(entry.digest, d.bytes)) throw REFUSED;
    return entry.user;
  }
}
