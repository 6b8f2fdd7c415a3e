/**
 * The authenticator union (kube's): each authenticator in order, the first user found wins; a credential
 * one of them refuses is a 401. A request with no credential at all is the anonymous user, when allowed.
 */
import { anonymousUser, ApiError, type UserInfo } from '../api/index.js';
import type { AuthenticationRequest, Authenticator } from './authenticator.js';

export class AuthenticatorUnion implements Authenticator {
  constructor(
    private readonly authenticators: readonly Authenticator[],
    private readonly anonymous = true,
  ) {}

  async authenticate(request: AuthenticationRequest): Promise<UserInfo> {
    let refused: unknown;
    for (const authenticator of this.authenticators) {
      try {
        const user = await authenticator.authenticate(request);
        if (user) return user;
      } catch (e) {
        refused ??= e;
      }
    }
    if (refused) throw refused;
    if (!this.anonymous) throw ApiError.unauthorized();
    return anonymousUser;
  }
}
