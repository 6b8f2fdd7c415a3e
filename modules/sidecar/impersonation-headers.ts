/**
 * A user this server authenticated, as the upstream should see it: kube's Impersonate-* headers (client-go's
 * impersonating transport), sent with this server's own credentials. Extra keys are escaped as client-go
 * escapes them. system:authenticated and system:unauthenticated are left out: the upstream's impersonation
 * filter adds them itself, and asking for them would need permission to impersonate them.
 */
import type { OutgoingHttpHeaders } from 'node:http';
import type { UserInfo } from '../api/index.js';
import { escapeExtraKey } from '../aggregation/index.js';

const ADDED_UPSTREAM = new Set(['system:authenticated', 'system:unauthenticated']);

export function impersonationOf(user: UserInfo): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = { 'Impersonate-User': user.name };
  const groups = user.groups.filter((g) => !ADDED_UPSTREAM.has(g));
  if (groups.length > 0) headers['Impersonate-Group'] = groups;
  if (user.uid) headers['Impersonate-Uid'] = user.uid;
  for (const [key, values] of Object.entries(user.extra ?? {}))
    headers[`Impersonate-Extra-${escapeExtraKey(key)}`] = [...values];
  return headers;
}
