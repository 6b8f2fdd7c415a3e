/**
 * The claims of service-account tokens as kube writes and reads them: bound tokens (TokenRequest) with the
 * `kubernetes.io` claim, and legacy tokens (token Secrets) with the flat `kubernetes.io/serviceaccount/*`
 * claims. Payloads are written with their keys sorted, as Go's JSON of kube's claim maps is.
 */
import type { UserInfo } from '../../api/index.js';

/** The issuer of legacy (Secret) tokens, whatever --service-account-issuer says. */
export const LEGACY_ISSUER = 'kubernetes/serviceaccount';
/** go-jose's DefaultLeeway: clocks may disagree this much on exp, nbf and iat. */
export const LEEWAY_S = 60;

const USER_PREFIX = 'system:serviceaccount:';
export const ALL_SERVICE_ACCOUNTS = 'system:serviceaccounts';

export const CREDENTIAL_ID_KEY = 'authentication.kubernetes.io/credential-id';
export const POD_NAME_KEY = 'authentication.kubernetes.io/pod-name';
export const POD_UID_KEY = 'authentication.kubernetes.io/pod-uid';
export const NODE_NAME_KEY = 'authentication.kubernetes.io/node-name';
export const NODE_UID_KEY = 'authentication.kubernetes.io/node-uid';

export function serviceAccountUsername(namespace: string, name: string): string {
  return `${USER_PREFIX}${namespace}:${name}`;
}

export function serviceAccountGroups(namespace: string): string[] {
  return [ALL_SERVICE_ACCOUNTS, `system:serviceaccounts:${namespace}`];
}

export interface ObjectRef {
  name: string;
  uid: string;
}

/** What a token says about its holder, once its signature and issuer are verified. */
export interface ServiceAccountClaims {
  namespace: string;
  serviceAccount: ObjectRef;
  /** bound tokens only: at most one of pod and secret; node alone or with the pod it runs on */
  pod?: ObjectRef;
  secret?: ObjectRef;
  node?: ObjectRef;
  /** legacy tokens: the Secret holding the token */
  legacySecret?: string;
  jti?: string;
  /** seconds since the epoch; legacy tokens have none of these */
  exp?: number;
  nbf?: number;
  iat?: number;
  /** empty for legacy tokens (they are meant for this server only) */
  audiences: string[];
  issuer: string;
}

export interface BoundTokenRequest {
  issuer: string;
  namespace: string;
  serviceAccount: ObjectRef;
  audiences: string[];
  expirationSeconds: number;
  /** seconds since the epoch */
  now: number;
  jti: string;
  pod?: ObjectRef;
  secret?: ObjectRef;
  node?: ObjectRef;
}

function sortedKeys<T extends Record<string, unknown>>(o: T): T {
  return Object.fromEntries(
    Object.entries(o)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  ) as T;
}

/** A bound token's payload: iss, sub, aud, exp, iat, nbf, jti and the `kubernetes.io` claim. */
export function boundTokenPayload(r: BoundTokenRequest): Record<string, unknown> {
  return sortedKeys({
    aud: r.audiences,
    exp: r.now + r.expirationSeconds,
    iat: r.now,
    iss: r.issuer,
    jti: r.jti,
    'kubernetes.io': sortedKeys({
      namespace: r.namespace,
      node: r.node,
      pod: r.pod,
      secret: r.secret,
      serviceaccount: { name: r.serviceAccount.name, uid: r.serviceAccount.uid },
    }),
    nbf: r.now,
    sub: serviceAccountUsername(r.namespace, r.serviceAccount.name),
  });
}

/** A legacy token's payload (the token controller's): no expiry, no audience, bound to its Secret by name. */
export function legacyTokenPayload(
  namespace: string,
  serviceAccount: ObjectRef,
  secretName: string,
): Record<string, unknown> {
  return {
    iss: LEGACY_ISSUER,
    'kubernetes.io/serviceaccount/namespace': namespace,
    'kubernetes.io/serviceaccount/secret.name': secretName,
    'kubernetes.io/serviceaccount/service-account.name': serviceAccount.name,
    'kubernetes.io/serviceaccount/service-account.uid': serviceAccount.uid,
    sub: serviceAccountUsername(namespace, serviceAccount.name),
  };
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string => (typeof v === 'string' ? v : '');
const seconds = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);

function ref(v: unknown): ObjectRef | undefined {
  return isObject(v) ? { name: text(v.name), uid: text(v.uid) } : undefined;
}

/** `aud` is a string or a list of strings (RFC 7519). */
function audiences(v: unknown): string[] {
  if (typeof v === 'string') return [v];
  return Array.isArray(v) ? v.filter((a): a is string => typeof a === 'string') : [];
}

/** kube's SplitUsername, enough to compare a legacy token's `sub` with its other claims. */
function splitUsername(sub: string): { namespace: string; name: string } | undefined {
  if (!sub.startsWith(USER_PREFIX)) return undefined;
  const parts = sub.slice(USER_PREFIX.length).split(':');
  return parts.length === 2 && parts[0] && parts[1] ? { namespace: parts[0], name: parts[1] } : undefined;
}

/**
 * The claims of a verified payload; an Error (kube's words) when a claim the token's kind needs is missing.
 * Times are checked separately (they change while the claims are cached).
 */
export function readClaims(payload: Record<string, unknown>): ServiceAccountClaims {
  const issuer = text(payload.iss);
  const base = {
    issuer,
    audiences: audiences(payload.aud),
    exp: seconds(payload.exp),
    nbf: seconds(payload.nbf),
    iat: seconds(payload.iat),
  };
  if (issuer === LEGACY_ISSUER) {
    const claim = (name: string) => text(payload[`kubernetes.io/serviceaccount/${name}`]);
    const sub = text(payload.sub);
    const [namespace, secretName, name, uid] = [
      claim('namespace'),
      claim('secret.name'),
      claim('service-account.name'),
      claim('service-account.uid'),
    ];
    if (!sub) throw new Error('sub claim is missing');
    if (!namespace) throw new Error('namespace claim is missing');
    if (!secretName) throw new Error('secretName claim is missing');
    if (!name) throw new Error('serviceAccountName claim is missing');
    if (!uid) throw new Error('serviceAccountUID claim is missing');
    const subject = splitUsername(sub);
    if (subject?.namespace !== namespace || subject.name !== name) throw new Error('sub claim is invalid');
    return { ...base, namespace, serviceAccount: { name, uid }, legacySecret: secretName };
  }
  const k = isObject(payload['kubernetes.io']) ? payload['kubernetes.io'] : {};
  return {
    ...base,
    namespace: text(k.namespace),
    serviceAccount: ref(k.serviceaccount) ?? { name: '', uid: '' },
    pod: ref(k.pod),
    secret: ref(k.secret),
    node: ref(k.node),
    jti: text(payload.jti) || undefined,
  };
}

/** go-jose's time rules (kube's validator), with its leeway; undefined when the token is in its lifetime. */
export function timeProblem(c: ServiceAccountClaims, nowS: number): string | undefined {
  if (c.nbf !== undefined && nowS + LEEWAY_S < c.nbf) return 'service account token is not valid yet';
  if (c.exp !== undefined && nowS - LEEWAY_S > c.exp) return 'service account token has expired';
  if (c.iat !== undefined && nowS + LEEWAY_S < c.iat) return 'service account token is issued in the future';
  return undefined;
}

/** The user a token stands for: kube's ServiceAccountInfo.UserInfo, with system:authenticated added. */
export function serviceAccountUser(c: ServiceAccountClaims): UserInfo {
  const extra: Record<string, string[]> = {};
  // a pod-bound token names its pod (and the node it runs on); a node-bound one its node
  if (c.pod?.name && c.pod.uid) {
    extra[POD_NAME_KEY] = [c.pod.name];
    extra[POD_UID_KEY] = [c.pod.uid];
  }
  if (c.jti) extra[CREDENTIAL_ID_KEY] = [`JTI=${c.jti}`];
  if (c.node?.name) {
    extra[NODE_NAME_KEY] = [c.node.name];
    if (c.node.uid) extra[NODE_UID_KEY] = [c.node.uid];
  }
  const user: UserInfo = {
    name: serviceAccountUsername(c.namespace, c.serviceAccount.name),
    uid: c.serviceAccount.uid,
    groups: [...serviceAccountGroups(c.namespace), 'system:authenticated'],
  };
  if (Object.keys(extra).length > 0) user.extra = extra;
  return user;
}
