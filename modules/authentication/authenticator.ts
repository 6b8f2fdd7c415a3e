/** Bearer-token authentication: the static token file and the generated admin token. */
import { ApiError } from '../api/status.js';
import { anonymousUser, type UserInfo } from './user.js';

export class Authenticator {
  constructor(private readonly tokens: Map<string, UserInfo>) {}

  /** No credentials: anonymous. A bearer token we don't know: 401, even though anonymous access exists. */
  authenticate(authorization: string | undefined): UserInfo {
    if (!authorization) return anonymousUser;
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    const user = match ? this.tokens.get(match[1]) : undefined;
    if (!user) throw ApiError.unauthorized();
    return { ...user, groups: [...user.groups, 'system:authenticated'] };
  }
}
