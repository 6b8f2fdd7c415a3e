/**
 * The authenticated user as the host hands it to an aggregated server: kube's X-Remote-* headers (the
 * standard names every aggregated server reads). Extra keys are escaped as kube escapes them: every byte that
 * may not appear in a header name, and `%`, becomes %XX.
 */
import type { OutgoingHttpHeaders } from 'node:http';
import type { UserInfo } from '../api/index.js';

/** RFC 7230 token characters, without `%` (the escape) */
const TOKEN_CHAR = /^[A-Za-z0-9!#$&'*+\-.^_`|~]$/;

export function escapeExtraKey(key: string): string {
  let out = '';
  for (const byte of Buffer.from(key, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += TOKEN_CHAR.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

export function identityHeaders(user: UserInfo): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = { 'X-Remote-User': user.name };
  if (user.groups.length > 0) headers['X-Remote-Group'] = [...user.groups];
  for (const [key, values] of Object.entries(user.extra ?? {}))
    headers[`X-Remote-Extra-${escapeExtraKey(key)}`] = [...values];
  return headers;
}

/** Client headers never passed on: credentials, impersonation, and identity headers the client made up. */
export function droppedHeader(name: string): boolean {
  return name === 'authorization' || name.startsWith('impersonate-') || name.startsWith('x-remote-');
}

/** Who the host is when it asks a backend itself (discovery, availability): kube's aggregator identity. */
export const AGGREGATOR_USER: UserInfo = {
  name: 'system:kube-aggregator',
  uid: '',
  groups: ['system:masters'],
};
