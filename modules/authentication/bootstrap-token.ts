/**
 * Bootstrap tokens (`--enable-bootstrap-token-auth`): a bearer token `<id>.<secret>` is the user
 * `system:bootstrap:<id>` while its Secret `kube-system/bootstrap-token-<id>` allows it. The Secret is read
 * from this replica's watch cache, so a token costs a map lookup and no database round trip, and a Secret
 * changed or deleted takes effect as soon as the cache has it.
 */
import { timingSafeEqual } from 'node:crypto';
import type { KubeObject, UserInfo } from '../api/index.js';
import {
  bearerToken,
  CredentialRefused,
  INVALID_BEARER_TOKEN,
  type AuthenticationRequest,
  type Authenticator,
} from './authenticator.js';
import {
  BOOTSTRAP_SECRET_PREFIX,
  BOOTSTRAP_TOKEN,
  BOOTSTRAP_TOKEN_NAMESPACE,
  bootstrapTokenUser,
} from './bootstrap-secret.js';

/** Finds a Secret by namespace and name (the watch cache's current state). */
export type SecretLookup = (namespace: string, name: string) => KubeObject | undefined;

/** Go's subtle.ConstantTimeCompare: the lengths may show, the contents may not. */
function sameSecret(stored: string, given: string): boolean {
  const a = Buffer.from(stored);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

export class BootstrapTokenAuthenticator implements Authenticator {
  constructor(
    private readonly secrets: SecretLookup,
    private readonly now: () => number = Date.now,
  ) {}

  /** Not shaped `<id>.<secret>`: not ours. Shaped so but not allowed by its Secret: 401. */
  async authenticate(request: AuthenticationRequest): Promise<UserInfo | undefined> {
    const token = bearerToken(request);
    const match = token === undefined ? null : BOOTSTRAP_TOKEN.exec(token);
    if (!match) return undefined;
    const [, id, secret] = match;
    const stored = this.secrets(BOOTSTRAP_TOKEN_NAMESPACE, BOOTSTRAP_SECRET_PREFIX + id);
    const user = bootstrapTokenUser(stored, id, (s) => sameSecret(s, secret), this.now());
    if (!user) throw new CredentialRefused(INVALID_BEARER_TOKEN);
    return user;
  }
}
