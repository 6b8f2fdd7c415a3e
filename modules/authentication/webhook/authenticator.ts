/**
 * Webhook token authentication (kube's --authentication-token-webhook-*): a bearer token no earlier
 * authenticator knows is sent to the webhook in a TokenReview. Its yes is the user (name, uid, groups,
 * extra); its no, an error, a non-2xx answer, a timeout or a webhook that is down are a refusal (401 when no
 * other authenticator accepts). Yes and no are cached for the TTL, by token and audiences; errors are not
 * (kube's cacheErrs=false), so a webhook that recovers is asked again at once.
 */
import {
  bearerToken,
  CredentialRefused,
  INVALID_BEARER_TOKEN,
  type Authenticated,
  type AuthenticationRequest,
  type Authenticator,
} from '../authenticator.js';
import { TokenCache } from '../token-cache.js';
import type { ReviewStatus, TokenReviewClient } from './client.js';

/** What the webhook said; `transient` answers (errors) are not cached. */
type Answer = { user: Authenticated } | { refused: string; transient?: boolean };

export interface WebhookAuthenticatorOptions {
  /** --authentication-token-webhook-cache-ttl: how long yes and no are kept (0: not at all) */
  cacheTtlMs: number;
  /** --api-audiences: what the webhook's users are good for when it names no audiences itself */
  apiAudiences?: readonly string[];
  /** a line for the server's log when the webhook could not be asked (never holds the token) */
  log?: (message: string) => void;
  /**
   * false: no audiences are sent and none are checked; the webhook judges the token for its own (a delegating
   * server's host, as kube's aggregated servers, which have no API audiences, ask it)
   */
  sendAudiences?: boolean;
}

export class WebhookTokenAuthenticator implements Authenticator {
  private readonly cache = new TokenCache<Answer>();

  constructor(
    private readonly client: Pick<TokenReviewClient, 'review'>,
    private readonly options: WebhookAuthenticatorOptions,
  ) {}

  async authenticate(request: AuthenticationRequest): Promise<Authenticated | undefined> {
    const token = bearerToken(request);
    if (token === undefined) return undefined;
    const audiences = this.options.sendAudiences === false ? undefined : request.audiences;
    const answer = await this.cache.get(
      this.cache.key(token, audiences),
      () => this.ask(token, audiences),
      (a) => ('transient' in a && a.transient ? 0 : this.options.cacheTtlMs),
    );
    if ('user' in answer) return answer.user;
    throw new CredentialRefused(answer.refused);
  }

  private async ask(token: string, audiences: readonly string[] | undefined): Promise<Answer> {
    let status: ReviewStatus;
    try {
      status = await this.client.review(token, audiences);
    } catch (e) {
      const message = `token webhook: ${e instanceof Error ? e.message : String(e)}`;
      this.options.log?.(message);
      return { refused: message, transient: true };
    }
    return this.answerOf(status, audiences);
  }

  /** kube's reading of the webhook's status, audiences included. */
  private answerOf(status: ReviewStatus, wanted: readonly string[] | undefined): Answer {
    let audiences: string[] | undefined;
    if (wanted) {
      // the webhook may name the audiences the token is good for; if not, the API's own are assumed
      const got = status.audiences.length > 0 ? status.audiences : (this.options.apiAudiences ?? []);
      audiences = wanted.filter((a) => got.includes(a));
      if (audiences.length === 0) return { refused: INVALID_BEARER_TOKEN };
    }
    // a no with a reason is an error to kube, not cached
    if (!status.authenticated)
      return status.error ? { refused: status.error, transient: true } : { refused: INVALID_BEARER_TOKEN };
    const user: Authenticated = {
      name: status.user.username,
      uid: status.user.uid,
      groups: status.user.groups,
    };
    if (status.user.extra) user.extra = status.user.extra;
    if (audiences) user.audiences = audiences;
    // cached and handed to every request with this token: nobody may change it
    Object.freeze(user.groups);
    return { user: Object.freeze(user) };
  }
}
