/**
 * Impersonation (kube's Impersonate-* headers): the authenticated user acts as another user, with groups,
 * a UID and extra fields, each of which it must be allowed to `impersonate`. Runs after authentication and
 * before authorization, which then judges the impersonated user.
 */
import { ApiError, type UserInfo } from '../api/index.js';
import type { Attributes, Authorizer } from '../authorization/index.js';
import { forbidden } from '../authorization/index.js';

const USER = 'impersonate-user';
const GROUP = 'impersonate-group';
const UID = 'impersonate-uid';
const EXTRA = 'impersonate-extra-';
const SERVICE_ACCOUNT = 'system:serviceaccount:';

/** Impersonate-* headers by lower-case name, each with every value as sent. */
export type ImpersonationHeaders = Record<string, string | string[] | undefined>;

function values(headers: ImpersonationHeaders, name: string): string[] {
  const v = headers[name];
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

/**
 * The Impersonate-* headers of a request from its raw header list: a repeated header is several values and a
 * comma belongs to the value (Node's joined `headers` would split `a,b` into two groups; kube does not).
 */
export function impersonationHeaders(rawHeaders: readonly string[]): ImpersonationHeaders {
  const out: Record<string, string[]> = {};
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i];
    if (name.length < 12 || (name.charCodeAt(0) | 0x20) !== 0x69) continue; // 'i'
    const lower = name.toLowerCase();
    if (!lower.startsWith('impersonate-')) continue;
    (out[lower] ??= []).push(rawHeaders[i + 1]);
  }
  return out;
}

/** Extra keys travel percent-encoded in header names (kube encodes what a header name cannot hold). */
function extraKey(header: string): string {
  const raw = header.slice(EXTRA.length);
  try {
    return decodeURIComponent(raw).toLowerCase();
  } catch {
    throw ApiError.badRequest(`invalid Impersonate-Extra header ${JSON.stringify(header)}`);
  }
}

export interface ImpersonationRequest {
  name: string;
  groups: string[];
  uid?: string;
  extra: Record<string, string[]>;
}

/** The Impersonate-* headers of a request; undefined when there are none. */
export function impersonationRequest(headers: ImpersonationHeaders): ImpersonationRequest | undefined {
  const users = values(headers, USER);
  const groups = values(headers, GROUP).filter(Boolean);
  const uids = values(headers, UID);
  const extra: Record<string, string[]> = {};
  for (const name of Object.keys(headers)) {
    if (name.startsWith(EXTRA)) extra[extraKey(name)] = values(headers, name);
  }
  if (users.length === 0) {
    if (groups.length > 0 || uids.length > 0 || Object.keys(extra).length > 0) {
      throw ApiError.badRequest(
        'requested impersonation of groups, a UID or extra fields without impersonating a user',
      );
    }
    return undefined;
  }
  if (users.length > 1 || !users[0]) throw ApiError.badRequest('Impersonate-User must name exactly one user');
  if (uids.length > 1) throw ApiError.badRequest('Impersonate-Uid must name exactly one UID');
  return { name: users[0], groups, uid: uids[0], extra };
}

export class Impersonation {
  constructor(private readonly authorizer: Authorizer) {}

  /** The user `actor` acts as; `actor` itself when the request impersonates no one. 403 for any step not allowed. */
  async actAs(actor: UserInfo, headers: ImpersonationHeaders): Promise<UserInfo> {
    const wanted = impersonationRequest(headers);
    if (!wanted) return actor;
    let groups = [...wanted.groups];
    const sa = wanted.name.startsWith(SERVICE_ACCOUNT)
      ? wanted.name.slice(SERVICE_ACCOUNT.length).split(':')
      : [];
    if (sa.length === 2 && sa[0] && sa[1]) {
      await this.check(actor, { resource: 'serviceaccounts', namespace: sa[0], name: sa[1] });
      if (wanted.groups.length === 0) groups = ['system:serviceaccounts', `system:serviceaccounts:${sa[0]}`];
    } else {
      await this.check(actor, { resource: 'users', name: wanted.name });
    }
    for (const group of wanted.groups) await this.check(actor, { resource: 'groups', name: group });
    if (wanted.uid !== undefined) {
      await this.check(actor, { resource: 'uids', apiGroup: 'authentication.k8s.io', name: wanted.uid });
    }
    for (const [key, vals] of Object.entries(wanted.extra)) {
      for (const v of vals) {
        await this.check(actor, {
          resource: 'userextras',
          subresource: key,
          apiGroup: 'authentication.k8s.io',
          name: v,
        });
      }
    }
    const implied = wanted.name === 'system:anonymous' ? 'system:unauthenticated' : 'system:authenticated';
    if (!groups.includes(implied)) groups.push(implied);
    const user: UserInfo = { name: wanted.name, uid: wanted.uid ?? '', groups };
    if (Object.keys(wanted.extra).length > 0) user.extra = wanted.extra;
    return user;
  }

  private async check(
    actor: UserInfo,
    target: { resource: string; name: string; namespace?: string; apiGroup?: string; subresource?: string },
  ): Promise<void> {
    const attributes: Attributes = {
      user: actor,
      verb: 'impersonate',
      isResourceRequest: true,
      path: '',
      namespace: target.namespace ?? '',
      apiGroup: target.apiGroup ?? '',
      apiVersion: '',
      resource: target.resource,
      subresource: target.subresource ?? '',
      name: target.name,
    };
    const verdict = await this.authorizer.authorize(attributes);
    if (verdict.decision !== 'allow') throw forbidden(attributes, verdict.reason);
  }
}
