/**
 * The answers of authentication.k8s.io's virtual kinds (modules/kinds/authentication): TokenReview asks the
 * union's token authenticators about a token, SelfSubjectReview reports the identity the request acts as.
 * Their objects are shaped as kube's JSON has them (empty fields left out).
 */
import { ApiError, isPlainObject, nowTimestamp, type KubeObject, type UserInfo } from '../api/index.js';
import type { VirtualCreate } from '../registry/index.js';
import type { AuthenticatorUnion } from './union.js';

/** authentication.k8s.io UserInfo, in kube's field order, empty fields left out */
export function userInfoOf(user: UserInfo): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (user.name) out.username = user.name;
  if (user.uid) out.uid = user.uid;
  if (user.groups.length > 0) out.groups = [...user.groups];
  if (user.extra && Object.keys(user.extra).length > 0) out.extra = structuredClone(user.extra);
  return out;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** POST tokenreviews: the request object comes back with its status filled in (kube's TokenReview REST). */
export function tokenReview(union: AuthenticatorUnion): VirtualCreate {
  return async (_ctx, obj) => {
    const spec = isPlainObject(obj.spec) ? obj.spec : {};
    const token = typeof spec.token === 'string' ? spec.token : '';
    if (!token) throw ApiError.badRequest('token is required for TokenReview in authentication');
    const asked = strings(spec.audiences);
    const answer = await union.reviewToken(token, asked);
    const status: Record<string, unknown> = {};
    if (answer.user) {
      // kube's guard: an authenticator must not answer for audiences nobody asked about
      const wanted = answer.wanted;
      if (wanted.length > 0 && !(answer.audiences ?? []).some((a) => wanted.includes(a)))
        throw ApiError.internal('error validating audiences');
      status.authenticated = true;
      status.user = userInfoOf(answer.user);
      if (answer.audiences?.length) status.audiences = [...answer.audiences];
    } else {
      status.user = {};
      status.error = answer.error;
    }
    return { ...obj, status } as KubeObject;
  };
}

/** POST selfsubjectreviews: who the request is, after impersonation (what authorization judged). */
export const selfSubjectReview: VirtualCreate = async (ctx, obj) => ({
  apiVersion: obj.apiVersion,
  kind: obj.kind,
  metadata: { creationTimestamp: nowTimestamp() },
  status: { userInfo: userInfoOf(ctx.user) },
});
