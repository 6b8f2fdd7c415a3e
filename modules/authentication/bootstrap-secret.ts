/**
 * Bootstrap token Secrets as kube's cluster-bootstrap library reads them (`kube-system/bootstrap-token-<id>`,
 * type `bootstrap.kubernetes.io/token`). Nothing checks these Secrets when they are written, as in kube: a
 * Secret that breaks a rule is simply not a token, so every rule is applied here, when the Secret is used.
 */
import { isPlainObject, type KubeObject, type UserInfo } from '../api/index.js';
import { parseGoTime } from '../schema/index.js';

export const BOOTSTRAP_TOKEN_NAMESPACE = 'kube-system';
export const BOOTSTRAP_TOKEN_TYPE = 'bootstrap.kubernetes.io/token';
export const BOOTSTRAP_SECRET_PREFIX = 'bootstrap-token-';

/** `<id>.<secret>` as kubeadm makes them; anything else is not a bootstrap token */
export const BOOTSTRAP_TOKEN = /^([a-z0-9]{6})\.([a-z0-9]{16})$/;
const SECRET_NAME = /^bootstrap-token-([a-z0-9]{6})$/;
const EXTRA_GROUP = /^system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]$/;
const DEFAULT_GROUP = 'system:bootstrappers';

/** A key of the Secret's data, decoded ('' when absent, as kube's GetData). */
export function secretValue(secret: KubeObject, key: string): string {
  const data = isPlainObject(secret.data) ? secret.data : undefined;
  const value = data?.[key];
  return typeof value === 'string' ? Buffer.from(value, 'base64').toString('utf8') : '';
}

export function isBootstrapTokenSecret(secret: KubeObject): boolean {
  return secret.type === BOOTSTRAP_TOKEN_TYPE && secret.metadata.namespace === BOOTSTRAP_TOKEN_NAMESPACE;
}

/**
 * kube's GetExpiration: no `expiration` key never expires; one that does not parse as RFC 3339 counts as
 * expired (so the token cleaner removes it). Whole seconds: a fraction is dropped, which expires a token up
 * to a second early, never late.
 */
export function tokenExpiry(secret: KubeObject, now: number): { expired: boolean; remainingMs?: number } {
  const text = secretValue(secret, 'expiration');
  if (text === '') return { expired: false };
  const parsed = parseGoTime(text, false);
  if (!parsed.ok) return { expired: true };
  const remainingMs = Date.parse(parsed.canonical) - now;
  return remainingMs > 0 ? { expired: false, remainingMs } : { expired: true };
}

/** `system:bootstrappers` and the valid `auth-extra-groups`, sorted and unique; undefined if one is invalid. */
export function bootstrapGroups(secret: KubeObject): string[] | undefined {
  const extra = secretValue(secret, 'auth-extra-groups');
  const groups = new Set([DEFAULT_GROUP]);
  if (extra !== '') {
    for (const group of extra.split(',')) {
      if (!EXTRA_GROUP.test(group)) return undefined;
      groups.add(group);
    }
  }
  return [...groups].sort();
}

/** The token id a Secret's name carries, if it is named as a bootstrap token Secret. */
export function tokenIdOfName(name: string): string | undefined {
  return SECRET_NAME.exec(name)?.[1];
}

/**
 * The user a bootstrap token `<id>.<secret>` stands for, by kube's rules, or undefined when its Secret does
 * not make it one. `secretMatches` compares the secret part (in constant time, by the caller).
 */
export function bootstrapTokenUser(
  secret: KubeObject | undefined,
  id: string,
  secretMatches: (stored: string) => boolean,
  now: number,
): UserInfo | undefined {
  if (!secret || secret.metadata.deletionTimestamp) return undefined;
  if (secret.type !== BOOTSTRAP_TOKEN_TYPE || !isPlainObject(secret.data)) return undefined;
  if (!secretMatches(secretValue(secret, 'token-secret'))) return undefined;
  if (secretValue(secret, 'token-id') !== id) return undefined;
  if (tokenExpiry(secret, now).expired) return undefined;
  if (secretValue(secret, 'usage-bootstrap-authentication') !== 'true') return undefined;
  const groups = bootstrapGroups(secret);
  if (!groups) return undefined;
  return { name: `system:bootstrap:${id}`, uid: '', groups: [...groups, 'system:authenticated'] };
}

/**
 * The id and secret a Secret signs `cluster-info` with (kube's validateSecretForSigning), or undefined: the
 * name and `token-id` agree, a `token-secret` is there, it has not expired and `usage-bootstrap-signing` is
 * "true". Stricter than kube: a Secret being deleted (finalizers pending) no longer signs, as it no longer
 * authenticates either.
 */
export function signingToken(secret: KubeObject, now: number): { id: string; secret: string } | undefined {
  if (!isBootstrapTokenSecret(secret) || secret.metadata.deletionTimestamp) return undefined;
  const id = secretValue(secret, 'token-id');
  if (id === '' || tokenIdOfName(secret.metadata.name ?? '') !== id) return undefined;
  const tokenSecret = secretValue(secret, 'token-secret');
  if (tokenSecret === '') return undefined;
  if (tokenExpiry(secret, now).expired) return undefined;
  if (secretValue(secret, 'usage-bootstrap-signing') !== 'true') return undefined;
  return { id, secret: tokenSecret };
}
