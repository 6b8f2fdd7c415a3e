/**
 * The authenticator union (kube's): each authenticator in order, the first user found wins; a credential
 * one of them refuses is a 401. A request with no credential at all is the anonymous user, when allowed.
 */
import { anonymousUser, ApiError, type UserInfo } from '../api/index.js';
import {
  CredentialRefused,
  INVALID_BEARER_TOKEN,
  type Authenticated,
  type AuthenticationRequest,
  type Authenticator,
} from './authenticator.js';

/** Who may come without credentials (--anonymous-auth, or AuthenticationConfiguration's `anonymous`). */
export interface AnonymousAccess {
  enabled: boolean;
  /** set: anonymous requests are let in on exactly these paths (anonymous.conditions[].path) */
  paths?: readonly string[];
}

export interface UnionOptions {
  /** default: enabled everywhere (kube's --anonymous-auth=true) */
  anonymous?: boolean | AnonymousAccess;
  /** --api-audiences: what a request's credential must be meant for, and TokenReview's default */
  apiAudiences?: readonly string[];
}

/** TokenReview's answer: the user and the audiences the token is good for, or why it is no one. */
export interface TokenReviewAnswer {
  /** the audiences asked about: the review's own, else the API's (empty: none checked) */
  wanted: readonly string[];
  user?: UserInfo;
  audiences?: readonly string[];
  /** the refusals heard, in kube's aggregate form ("a" or "[a, b]"); empty when a user was found */
  error: string;
}

const AUTHENTICATED = 'system:authenticated';
const UNAUTHENTICATED = 'system:unauthenticated';

/**
 * kube's AuthenticatedGroupAdder, over whatever an authenticator returned: every user but the anonymous one
 * is in system:authenticated. Users that already say where they belong are returned as they are (no copy).
 */
function withAuthenticatedGroup(found: Authenticated): UserInfo {
  let user: UserInfo = found;
  if (found.audiences !== undefined) {
    const { audiences: _audiences, ...rest } = found;
    user = rest;
  }
  if (user.name === anonymousUser.name) return user;
  if (user.groups.includes(AUTHENTICATED) || user.groups.includes(UNAUTHENTICATED)) return user;
  return { ...user, groups: [...user.groups, AUTHENTICATED] };
}

function intersect(a: readonly string[], b: readonly string[]): string[] {
  return a.filter((x) => b.includes(x));
}

/** What a refusal says in a TokenReview: a CredentialRefused's reason, else the error's own message. */
function why(e: unknown): string {
  if (e instanceof CredentialRefused) return e.why;
  return e instanceof Error ? e.message : String(e);
}

/** kube's utilerrors aggregate: one message as it is, several (without repeats) in brackets. */
function aggregate(messages: readonly string[]): string {
  const unique = [...new Set(messages)];
  return unique.length === 1 ? unique[0] : `[${unique.join(', ')}]`;
}

export class AuthenticatorUnion implements Authenticator {
  private readonly anonymous: AnonymousAccess;
  private readonly apiAudiences: readonly string[];

  /** `options` may be a bare boolean: anonymous access on or off, as before options existed */
  constructor(
    private readonly authenticators: readonly Authenticator[],
    options: UnionOptions | boolean = {},
  ) {
    const o = typeof options === 'boolean' ? { anonymous: options } : options;
    const anonymous = o.anonymous ?? true;
    this.anonymous = typeof anonymous === 'boolean' ? { enabled: anonymous } : anonymous;
    this.apiAudiences = o.apiAudiences ?? [];
  }

  async authenticate(request: AuthenticationRequest): Promise<UserInfo> {
    // kube puts the API's audiences in every request's context; authenticators that care read them there
    if (this.apiAudiences.length > 0 && !request.audiences) request.audiences = this.apiAudiences;
    let refused: unknown;
    for (const authenticator of this.authenticators) {
      try {
        const user = await authenticator.authenticate(request);
        if (user) return withAuthenticatedGroup(user);
      } catch (e) {
        refused ??= e;
      }
    }
    if (refused) throw refused;
    if (!this.anonymousAllowed(request.path)) throw ApiError.unauthorized();
    return anonymousUser;
  }

  /**
   * TokenReview: who `token` is, for `audiences` (unset: the API's own). Every authenticator hears a request
   * that carries nothing but the token (kube's fake request), so each token method answers while certificate
   * and proxy methods find nothing; anonymous never answers. An authenticator that does not know audiences
   * counts only when the audiences asked include one of the API's (kube's audience-agnostic wrapper).
   */
  async reviewToken(token: string, audiences?: readonly string[]): Promise<TokenReviewAnswer> {
    const wanted = audiences?.length ? audiences : this.apiAudiences;
    const request: AuthenticationRequest = {
      headers: { authorization: `Bearer ${token}` },
      rawHeaders: [],
      peerCertificates: () => undefined,
      audiences: wanted.length > 0 ? wanted : undefined,
    };
    const refusals: string[] = [];
    for (const authenticator of this.authenticators) {
      let found: Authenticated | undefined;
      try {
        found = await authenticator.authenticate(request);
      } catch (e) {
        refusals.push(why(e));
        continue;
      }
      if (!found) continue;
      const user = withAuthenticatedGroup(found);
      if (wanted.length === 0) return { wanted, user, audiences: found.audiences, error: '' };
      const good = found.audiences ?? intersect(this.apiAudiences, wanted);
      if (found.audiences === undefined && good.length === 0) continue;
      return { wanted, user, audiences: good, error: '' };
    }
    return { wanted, error: aggregate(refusals.length > 0 ? refusals : [INVALID_BEARER_TOKEN]) };
  }

  private anonymousAllowed(path: string | undefined): boolean {
    if (!this.anonymous.enabled) return false;
    const paths = this.anonymous.paths;
    // kube compares the request's path exactly with each condition
    return !paths || paths.length === 0 || (path !== undefined && paths.includes(path));
  }
}
