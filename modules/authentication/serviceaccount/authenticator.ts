/**
 * Service-account tokens as bearer tokens (kube's JWT token authenticators): a JWT whose `iss` is one of
 * --service-account-issuer (a bound token) or `kubernetes/serviceaccount` (a legacy token Secret's). Its
 * signature is checked once, then cached by digest; its lifetime, audiences and objects are checked on
 * every request, the objects in this replica's watch cache. Tokens of other issuers are not ours.
 */
import { timingSafeEqual } from 'node:crypto';
import { isPlainObject, type KubeObject, type UserInfo } from '../../api/index.js';
import type { Authenticated, AuthenticationRequest, Authenticator } from '../authenticator.js';
import { bearerToken, CredentialRefused } from '../authenticator.js';
import {
  LEEWAY_S,
  LEGACY_ISSUER,
  readClaims,
  serviceAccountUser,
  timeProblem,
  type ObjectRef,
  type ServiceAccountClaims,
} from './claims.js';
import { unverifiedIssuer, verifiedPayload } from './jwt.js';
import type { VerificationKey } from './keys.js';
import { tokenDigest } from '../token-digest.js';
import { VerifiedTokens, type VerifiedToken } from './verified-tokens.js';

/** What a token may refer to, by resource (core group); undefined when it does not exist. */
export type ObjectGetter = (
  resource: 'serviceaccounts' | 'secrets' | 'pods' | 'nodes',
  namespace: string,
  name: string,
) => KubeObject | undefined | Promise<KubeObject | undefined>;

export interface ServiceAccountAuthenticatorOptions {
  keys: readonly VerificationKey[];
  /** --service-account-issuer, all of them */
  issuers: readonly string[];
  /** --api-audiences (else the issuers): a token must be for one of them */
  apiAudiences: readonly string[];
  /** --service-account-lookup: legacy tokens are checked against their Secret and account (bound ones always are) */
  lookup: boolean;
  objects: ObjectGetter;
  /** milliseconds since the epoch (tests) */
  now?: () => number;
  cacheSize?: number;
}

/**
 * A 401 whose `why` is kube's reason (never the token): clients only see "Unauthorized", as from kube, while
 * a TokenReview may report the reason.
 */
export interface TokenAuthentication {
  user: UserInfo;
  /** the audiences the token and the request have in common */
  audiences: string[];
}

const SECRET_TOKEN_KEY = 'token';
const INVALID_SINCE_LABEL = 'kubernetes.io/legacy-token-invalid-since';
const invalidated = 'service account token has been invalidated';

/** kube's deletion rule: an object Terminating for longer than the leeway no longer vouches for a token. */
function deletedBefore(obj: KubeObject, limitMs: number): boolean {
  const ts = obj.metadata.deletionTimestamp;
  return typeof ts === 'string' && Date.parse(ts) < limitMs;
}

function intersect(a: readonly string[], b: readonly string[]): string[] {
  return a.filter((x) => b.includes(x));
}

export class ServiceAccountTokenAuthenticator implements Authenticator {
  private readonly verified: VerifiedTokens;
  private readonly issuers: ReadonlySet<string>;
  private readonly now: () => number;

  constructor(private readonly options: ServiceAccountAuthenticatorOptions) {
    this.verified = new VerifiedTokens(options.cacheSize);
    this.issuers = new Set([...options.issuers, LEGACY_ISSUER]);
    this.now = options.now ?? Date.now;
  }

  async authenticate(request: AuthenticationRequest): Promise<Authenticated | undefined> {
    const token = bearerToken(request);
    if (token === undefined) return undefined;
    const found = await this.authenticateToken(token, request.audiences ?? this.options.apiAudiences);
    return found && (request.audiences ? { ...found.user, audiences: found.audiences } : found.user);
  }

  /**
   * The user of `token` for a request meant for `audiences` (default: this server's); undefined when the token
   * is not a service-account token of ours; CredentialRefused when it is one but does not authenticate.
   */
  async authenticateToken(
    token: string,
    audiences: readonly string[] = this.options.apiAudiences,
  ): Promise<TokenAuthentication | undefined> {
    const digest = tokenDigest(token).base64;
    let entry = this.verified.get(digest);
    if (!entry) {
      const issuer = unverifiedIssuer(token);
      if (issuer === undefined || !this.issuers.has(issuer)) return undefined;
      entry = await this.verify(token);
      this.verified.set(digest, entry);
    }
    const { claims } = entry;
    const nowMs = this.now();
    const late = timeProblem(claims, Math.floor(nowMs / 1000));
    if (late) {
      this.verified.delete(digest);
      throw new CredentialRefused(late);
    }
    // a token without audiences (legacy) is meant for this server only
    const tokenAudiences = claims.audiences.length > 0 ? claims.audiences : this.options.apiAudiences;
    const common = intersect(tokenAudiences, audiences);
    if (common.length === 0 && this.options.apiAudiences.length > 0) {
      throw new CredentialRefused(
        `token audiences ${JSON.stringify(tokenAudiences)} is invalid for the target audiences ${JSON.stringify(audiences)}`,
      );
    }
    if (claims.legacySecret !== undefined) {
      if (this.options.lookup) await this.checkLegacy(claims, token);
    } else {
      await this.checkBound(claims, nowMs - LEEWAY_S * 1000);
    }
    return { user: entry.user, audiences: common };
  }

  private async verify(token: string): Promise<VerifiedToken> {
    let claims: ServiceAccountClaims;
    try {
      claims = readClaims(await verifiedPayload(token, this.options.keys));
    } catch (e) {
      throw new CredentialRefused((e as Error).message);
    }
    if (!this.issuers.has(claims.issuer))
      throw new CredentialRefused(`token issuer "${claims.issuer}" is invalid`);
    const user = serviceAccountUser(claims);
    Object.freeze(user.groups);
    if (user.extra) Object.freeze(user.extra);
    return { claims, user: Object.freeze(user) };
  }

  private async object(
    resource: Parameters<ObjectGetter>[0],
    namespace: string,
    name: string,
  ): Promise<KubeObject | undefined> {
    return name ? await this.options.objects(resource, namespace, name) : undefined;
  }

  /** kube's validator: the account, and the object the token is bound to, still exist as they were. */
  private async checkBound(c: ServiceAccountClaims, deletedLimitMs: number): Promise<void> {
    const { namespace } = c;
    const account = await this.object('serviceaccounts', namespace, c.serviceAccount.name);
    if (!account) throw new CredentialRefused(`serviceaccounts "${c.serviceAccount.name}" not found`);
    if (account.metadata.uid !== c.serviceAccount.uid) {
      throw new CredentialRefused(
        `service account UID (${account.metadata.uid}) does not match claim (${c.serviceAccount.uid})`,
      );
    }
    if (deletedBefore(account, deletedLimitMs))
      throw new CredentialRefused(`service account ${namespace}/${c.serviceAccount.name} has been deleted`);
    if (c.secret) await this.checkBoundObject('secrets', namespace, c.secret, deletedLimitMs);
    if (c.pod) await this.checkBoundObject('pods', namespace, c.pod, deletedLimitMs);
    else if (c.node) await this.checkBoundObject('nodes', '', c.node, deletedLimitMs);
  }

  private async checkBoundObject(
    resource: 'secrets' | 'pods' | 'nodes',
    namespace: string,
    ref: ObjectRef,
    deletedLimitMs: number,
  ): Promise<void> {
    const obj = await this.object(resource, namespace, ref.name);
    if (!obj) throw new CredentialRefused(invalidated);
    if (obj.metadata.uid !== ref.uid) {
      const what = { secrets: 'secret', pods: 'pod', nodes: 'node' }[resource];
      throw new CredentialRefused(
        `${what} UID (${obj.metadata.uid}) does not match service account ${what} ref claim (${ref.uid})`,
      );
    }
    if (deletedBefore(obj, deletedLimitMs)) throw new CredentialRefused(invalidated);
  }

  /** kube's legacy validator: the token is still its Secret's, and the account the one it was made for. */
  private async checkLegacy(c: ServiceAccountClaims, token: string): Promise<void> {
    const { namespace } = c;
    const name = c.serviceAccount.name;
    const secret = await this.object('secrets', namespace, c.legacySecret!);
    if (!secret || secret.metadata.deletionTimestamp)
      throw new CredentialRefused('Token has been invalidated');
    const data = isPlainObject(secret.data) ? secret.data : {};
    const stored = Buffer.from(
      typeof data[SECRET_TOKEN_KEY] === 'string' ? data[SECRET_TOKEN_KEY] : '',
      'base64',
    );
    const given = Buffer.from(token);
    if (stored.length !== given.length || !timingSafeEqual(stored, given))
      throw new CredentialRefused("Token does not match server's copy");
    const account = await this.object('serviceaccounts', namespace, name);
    if (!account) throw new CredentialRefused(`serviceaccounts "${name}" not found`);
    if (account.metadata.deletionTimestamp)
      throw new CredentialRefused(`ServiceAccount ${namespace}/${name} has been deleted`);
    if (account.metadata.uid !== c.serviceAccount.uid) {
      throw new CredentialRefused(
        `ServiceAccount UID (${account.metadata.uid}) does not match claim (${c.serviceAccount.uid})`,
      );
    }
    if (secret.metadata.labels?.[INVALID_SINCE_LABEL]) {
      throw new CredentialRefused(
        `the token in secret ${namespace}/${c.legacySecret} for service account ${namespace}/${name} has been marked invalid. ` +
          `Use tokens from the TokenRequest API or manually created secret-based tokens, or remove the '${INVALID_SINCE_LABEL}' label from the secret to temporarily allow use of this token`,
      );
    }
  }
}
