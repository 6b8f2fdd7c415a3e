/** Bearer-token authentication: the static token file and the generated admin token. */
import { ApiError } from '../api/index.js';
import { anonymousUser, type UserInfo } from '../api/index.js';

export class Authenticator {
  /** each token's user as requests see it (with `system:authenticated`), made once: they are shared, so frozen */
  private readonly users = new Map<string, UserInfo>();

  constructor(tokens: Map<string, UserInfo>) {
    for (const [token, user] of tokens) {
      const groups = Object.freeze([...user.groups, 'system:authenticated']) as string[];
      this.users.set(token, Object.freeze({ ...user, groups }));
    }
  }

  /** No credentials: anonymous. A bearer token we don't know: 401, even though anonymous access exists. */
  authenticate(authorization: string | undefined): UserInfo {
    if (!authorization) return anonymousUser;
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    const user = match ? this.users.get(match[1]) : undefined;
    if (!user) throw ApiError.unauthorized();
    return user;
  }
}
